import type { WrittenFile } from "../../acp/fs-handlers.js";
import type { FileVersion } from "../../session/events.js";
import type { SessionState } from "../../session/state.js";
import { contentHash, tooLargeToKeep, type PreImageStore } from "../../store/pre-image-store.js";
import type { WorkspaceCheckpoints } from "../../store/checkpoint-store.js";
import type { EventSink, SessionEvents } from "../ports.js";
import { planCheckpointUndo } from "./checkpoint-undo.js";
import type { UndoAnswer, UndoOutcome, UndoPlan } from "../../session/undo-plan.js";
import { applyUndo, planUndo } from "./turn-undo.js";

/** What the edit history needs: the queue, the session's directory, the undo store, and the log to make an undo durable. */
export interface EditHistoryPorts {
  /** The queue, and a way to wait for a state (a turn taking its last checkpoint is over in moments). */
  events: SessionEvents & { until?(pred: (s: SessionState) => boolean): Promise<SessionState> };
  cwd: string;
  /** Without a store, writes are not tracked and there is no undo. */
  preImages?: PreImageStore;
  sink?: EventSink;
  /** The workspace's checkpoints: undo of what any writer changed, where a turn has them. */
  checkpoints?: WorkspaceCheckpoints;
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
    const busy = await this.busy();
    if (busy) return { kind: "message", lines: [busy], error: true };
    const { checkpoints, cwd, events, preImages } = this.ports;
    const fromCheckpoints = checkpoints ? await planCheckpointUndo(events.state, ref, { cwd, checkpoints }) : undefined;
    if (fromCheckpoints) return fromCheckpoints;
    if (!preImages) return { kind: "message", lines: ["undo needs checkpoints or an undo store"], error: true };
    // Undo is local: the files and what they held are on this machine, whether or not the agent
    // opened the session again (a refused load leaves no session id; the writes keep theirs).
    const s = events.state;
    const sessionId = s.info?.sessionId ?? s.writes?.[s.writes.length - 1]?.sessionId ?? "";
    return planUndo(s, ref, { cwd, sessionId, store: preImages });
  }

  /** What `/redo [turn]` would apply again: only checkpointed turns can be redone. */
  async planRedo(ref = ""): Promise<UndoAnswer> {
    const busy = await this.busy();
    if (busy) return { kind: "message", lines: [busy], error: true };
    const { checkpoints, cwd, events } = this.ports;
    const plan = checkpoints ? await planCheckpointUndo(events.state, ref, { cwd, checkpoints }, true) : undefined;
    return plan ?? { kind: "message", lines: ["nothing to redo: redo needs the turn's checkpoints"] };
  }

  /** Puts a confirmed plan's files back, and records what it did (so a resumed session knows). */
  async applyUndo(plan: UndoPlan): Promise<UndoOutcome | string> {
    const busy = await this.busy();
    if (busy) return busy;
    const io = { cwd: this.ports.cwd };
    const outcome = await applyUndo(plan, io);
    const skipped = outcome.skipped.map((k) => ({ path: k.path, reason: k.reason }));
    this.ports.events.dispatch({
      type: plan.redo ? "edits_redone" : "edits_undone",
      turnId: plan.turnId,
      restored: outcome.restored,
      deleted: outcome.deleted,
      skipped,
    });
    this.ports.sink?.sync();
    return outcome;
  }

  /** Why undo must wait, when a turn runs: the agent may be writing the files meanwhile. */
  private async busy(): Promise<string | undefined> {
    const { events } = this.ports;
    // A turn whose answer is in and that only takes its last checkpoint ends in moments: wait for it.
    if (events.state.phase === "draining" && events.until) {
      const idle = events.until((s) => s.phase !== "draining");
      await Promise.race([idle, new Promise((r) => setTimeout(r, 1500).unref())]);
    }
    const { phase } = events.state;
    if (phase === "prompting" || phase === "draining" || phase === "cancelling" || phase === "replaying") {
      return "a turn is running: undo once it is over (Esc cancels it), so the agent is not writing the files meanwhile";
    }
    return undefined;
  }
}
