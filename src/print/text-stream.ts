import { displayStatus, type SessionState, type ToolDisplayStatus } from "../session/state.js";
import { safeLine, safeText } from "../text/terminal-safe.js";

/** Where text output goes: stdout for the answer, stderr for activity. */
export interface PrintSinks {
  out(text: string): void;
  err(text: string): void;
  /** stdout is not a terminal (a pipe, a file): the answer may go out as the agent sent it. */
  rawOut?: boolean;
}

/** How the answer may be written: as the agent sent it (stdout is a pipe), or made safe for a terminal. */
export interface TextStreamOptions {
  raw: boolean;
}

const FINAL: ReadonlySet<ToolDisplayStatus> = new Set([
  "completed",
  "failed",
  "cancelled",
  "rejected",
  "stalled",
  "unknown",
  "interrupted",
  "ended",
  "ended_with_agent",
]);

/**
 * Streams a session in `--output-format text`: the agent's message text to stdout as it grows,
 * one line per tool call start and finish to stderr. Each call looks only at what is new or may
 * still change, so a session of a million updates costs what each update adds.
 */
export class TextStream {
  private written = new Map<string, number>();
  private lastItem?: string;
  private toolSeen = new Map<string, string>();
  /** Items before this index are handled; `open` lists the earlier ones that may still change. */
  private seen = 0;
  private readonly open: number[] = [];
  /**
   * Text read but not written yet: one message's, up to `to`. A piece is cut from the message once
   * per batch of events (`settle`), not once per chunk: a cut flattens the whole growing text.
   */
  private pending?: { item: { text: string }; from: number; to: number };

  constructor(
    private readonly sinks: PrintSinks,
    /** Whether a turn is this run's, read in `state` (the session as `update` was given it). */
    private readonly isOurs: (turnId: string, state: SessionState) => boolean,
    private readonly opts: TextStreamOptions = { raw: false },
  ) {}

  /** Writes what `state` has new: called for each event, with the session as that event left it. */
  update(state: SessionState): void {
    // Kept in place: this runs for every update of a flood.
    const open = this.open;
    let kept = 0;
    for (let j = 0; j < open.length; j++) if (this.handle(state, open[j])) open[kept++] = open[j];
    open.length = kept;
    for (; this.seen < state.items.length; this.seen++) if (this.handle(state, this.seen)) open.push(this.seen);
  }

  /** Writes what is new of one item; true while the item may change again. */
  private handle(state: SessionState, index: number): boolean {
    const item = state.items[index];
    if (item.turnId !== undefined && !this.isOurs(item.turnId, state)) return false;
    if (item.kind === "agent") {
      const done = this.written.get(item.id) ?? 0;
      if (item.text.length > done) {
        if (this.lastItem !== item.id) {
          this.settle();
          if (done === 0 && this.lastItem) this.sinks.out("\n\n");
        }
        // The text only grows: a later copy of the item holds what an earlier one did.
        const p = this.pending;
        if (p) {
          p.item = item;
          p.to = item.text.length;
        } else this.pending = { item, from: done, to: item.text.length };
        this.written.set(item.id, item.text.length);
        this.lastItem = item.id;
      }
      return index === state.items.length - 1;
    }
    if (item.kind === "tool") {
      const tool = state.toolCalls[item.toolCallId];
      if (!tool) return true;
      const status = displayStatus(tool);
      if (this.toolSeen.get(tool.toolCallId) !== status) {
        const first = !this.toolSeen.has(tool.toolCallId);
        this.toolSeen.set(tool.toolCallId, status);
        this.settle();
        if (first || status !== "pending")
          this.sinks.err(`[tool] ${safeLine(tool.title || tool.toolCallId)} (${tool.kind ?? "other"}): ${status}\n`);
      }
      // A final call's item is not read again: what it said need not be kept.
      if (!FINAL.has(status)) return true;
      this.toolSeen.delete(tool.toolCallId);
      return false;
    }
    // The session's failure is the run's error, reported once at its end (or no news: an exit after the answer).
    if (item.kind === "notice" && !item.failure) {
      this.settle();
      this.sinks.err(`[${item.level}] ${safeText(item.text)}\n`);
    }
    return false;
  }

  /** Writes the text read so far: after each batch of events, and before anything else is written. */
  settle(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = undefined;
    const fresh = p.item.text.slice(p.from, p.to);
    this.sinks.out(this.opts.raw ? fresh : safeText(fresh));
  }

  /** Ends the answer with a newline when it did not. */
  finish(): void {
    this.settle();
    if (this.lastItem) this.sinks.out("\n");
  }
}
