import type { WrittenFile } from "../../acp/fs-handlers.js";
import type { FileVersion } from "../../session/events.js";
import { contentHash, tooLargeToKeep, type PreImageStore } from "../../store/pre-image-store.js";
import type { EventSink, SessionEvents } from "../ports.js";
import { applyUndo, planUndo, type UndoAnswer, type UndoIo, type UndoOutcome, type UndoPlan } from "./turn-undo.js";

/** What the edit history needs: the queue, the session's directory, the undo store, and the log to make an undo durable. */
export interface EditHistoryPorts {
  events: SessionEvents;
  cwd: string;
  /** Without a store, writes are not tracked and there is no undo. */
  preImages?: PreImageStore;
  sink?: EventSink;
}

/** The agent's writes through conch, kept for `/undo`, and `/undo` itself. */
export class EditHistory {
  constructor(private readonly ports: EditHistoryPorts) {}

  /**
   * A write the agent made through conch: what it replaced goes to the undo store, and the write,
   * by content hash, becomes an event of the turn that runs now.
   */
  recordWrite(w: WrittenFile): void {
    const { events, preImages } = this.ports;
    const s = events.state;
    const turnId = s.pendingPrompts[s.pendingPrompts.length - 1] ?? s.currentTurnId ?? s.turns[s.turns.length - 1]?.id ?? "t0";
    const content = Buffer.from(w.content, "utf8");
    const after: FileVersion = { bytes: content.length, sha256: contentHash(content) };
    let before: FileVersion | null = null;
    let lost: string | undefined;
    if (w.replaced.kind === "file") {
      const sid = s.info?.sessionId;
      const kept = sid ? preImages?.put(sid, w.replaced.bytes) : undefined;
      before = { bytes: w.replaced.bytes.length, sha256: kept?.sha256 ?? contentHash(w.replaced.bytes) };
      if (!kept) lost = "the session had no id yet";
      else if (!kept.kept) lost = kept.why;
    } else if (w.replaced.kind === "too_large") {
      before = { bytes: w.replaced.size };
      lost = tooLargeToKeep(w.replaced.size);
    }
    events.dispatch({ type: "file_written", turnId, path: w.path, before, after, ...(lost ? { lost } : {}) });
  }

  /** What `/undo [turn]` would do (nothing is changed yet): a plan to show and confirm, or words for the person. */
  async planUndo(ref = ""): Promise<UndoAnswer> {
    const io = this.undoIo();
    if (typeof io === "string") return { kind: "message", lines: [io], error: true };
    return planUndo(this.ports.events.state, ref, io);
  }

  /** Puts a confirmed plan's files back, and records what it did (so a resumed session knows). */
  async applyUndo(plan: UndoPlan): Promise<UndoOutcome | string> {
    const io = this.undoIo();
    if (typeof io === "string") return io;
    const outcome = await applyUndo(plan, io);
    const skipped = outcome.skipped.map((k) => ({ path: k.path, reason: k.reason }));
    this.ports.events.dispatch({
      type: "edits_undone",
      turnId: plan.turnId,
      restored: outcome.restored,
      deleted: outcome.deleted,
      skipped,
    });
    this.ports.sink?.sync();
    return outcome;
  }

  /** Where an undo reads and writes, or why there is none. */
  private undoIo(): UndoIo | string {
    const { events, preImages: store, cwd } = this.ports;
    const sessionId = events.state.info?.sessionId;
    if (!sessionId || !store) return "undo needs a session with an undo store";
    const { phase } = events.state;
    if (phase === "prompting" || phase === "draining" || phase === "cancelling" || phase === "replaying") {
      return "a turn is running: undo once it is over (Esc cancels it), so the agent is not writing the files meanwhile";
    }
    return { cwd, sessionId, store };
  }
}
