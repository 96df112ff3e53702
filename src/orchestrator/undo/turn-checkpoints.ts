import type { SessionEvent } from "../../session/events.js";
import type { WorkspaceCheckpoints } from "../../store/checkpoint-store.js";
import type { SessionEvents } from "../ports.js";

/** Tool kinds that never change files: no checkpoint after them. */
const READ_ONLY = new Set(["read", "search", "think", "fetch", "switch_mode"]);

/**
 * Asks the workspace's checkpoint store for a snapshot at turn boundaries: once when the session
 * opens (the first snapshot of a project records it whole, so it is not paid at a turn's start),
 * before each prompt goes out, after each call that may have changed files, and when the turn
 * ends. Each becomes a `checkpoint` event, so undo works from the log (a resumed session too).
 */
export class TurnCheckpoints {
  private lastTree?: string;
  private lastTurn?: string;
  private warned = false;

  constructor(
    private readonly events: SessionEvents,
    readonly store: WorkspaceCheckpoints,
  ) {}

  /** Before turn `turnId`'s prompt goes out: the agent must not change a file before it is recorded. */
  async beforePrompt(turnId: string): Promise<void> {
    this.lastTurn = turnId;
    await this.record(turnId, "start");
  }

  /** The turn is about to end: its last checkpoint, before the session is idle again. */
  async beforeSettle(): Promise<void> {
    const turnId = this.events.state.currentTurnId ?? this.lastTurn;
    if (turnId) await this.record(turnId, "end");
  }

  /** Every event after it is folded: the session opened (a first snapshot, in the background), or a call that may have changed files ended. */
  observe(ev: SessionEvent): void {
    if (ev.type === "session_started") void this.record("", "open");
    if (ev.type !== "update") return;
    const u = ev.notification.update;
    if (u.sessionUpdate !== "tool_call_update" && u.sessionUpdate !== "tool_call") return;
    if (u.status !== "completed" && u.status !== "failed") return;
    const tool = this.events.state.toolCalls[u.toolCallId];
    if (!tool || tool.history || READ_ONLY.has(tool.kind ?? "other")) return;
    void this.record(tool.turnId, "call");
  }

  /** Resolves once every checkpoint asked for so far is logged, or after `boundMs`. */
  recorded(boundMs: number): Promise<void> {
    return Promise.race([this.last.then(() => undefined), new Promise<void>((r) => setTimeout(r, boundMs).unref())]);
  }

  private last: Promise<unknown> = Promise.resolve();

  private record(turnId: string, stage: "open" | "start" | "call" | "end"): Promise<void> {
    const done = this.take(turnId, stage);
    this.last = done;
    return done;
  }

  private async take(turnId: string, stage: "open" | "start" | "call" | "end"): Promise<void> {
    const snap = await this.store.snapshot();
    if ("error" in snap) {
      if (!this.warned) this.events.dispatch({ type: "notice", level: "warning", text: `no checkpoint: ${snap.error}` });
      this.warned = true;
      return;
    }
    // A turn's start is always marked (its span begins there); later marks only when something changed.
    if (stage !== "start" && snap.tree === this.lastTree) return;
    this.lastTree = snap.tree;
    this.events.dispatch({
      type: "checkpoint",
      turnId,
      stage,
      tree: snap.tree,
      ...(snap.skipped.length ? { skipped: snap.skipped.slice(0, 50) } : {}),
    });
  }
}
