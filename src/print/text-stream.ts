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
  private open: number[] = [];

  constructor(
    private readonly sinks: PrintSinks,
    private readonly isOurs: (turnId: string) => boolean,
    private readonly opts: TextStreamOptions = { raw: false },
  ) {}

  update(state: SessionState): void {
    const still: number[] = [];
    for (const i of this.open) if (this.handle(state, i)) still.push(i);
    for (; this.seen < state.items.length; this.seen++) if (this.handle(state, this.seen)) still.push(this.seen);
    this.open = still;
  }

  /** Writes what is new of one item; true while the item may change again. */
  private handle(state: SessionState, index: number): boolean {
    const item = state.items[index];
    if (item.turnId !== undefined && !this.isOurs(item.turnId)) return false;
    if (item.kind === "agent") {
      const done = this.written.get(item.id) ?? 0;
      if (item.text.length > done) {
        if (done === 0 && this.lastItem && this.lastItem !== item.id) this.sinks.out("\n\n");
        const fresh = item.text.slice(done);
        this.sinks.out(this.opts.raw ? fresh : safeText(fresh));
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
        if (first || status !== "pending")
          this.sinks.err(`[tool] ${safeLine(tool.title || tool.toolCallId)} (${tool.kind ?? "other"}): ${status}\n`);
      }
      return !FINAL.has(status);
    }
    // The session's failure is the run's error, reported once at its end (or no news: an exit after the answer).
    if (item.kind === "notice" && !item.failure) this.sinks.err(`[${item.level}] ${safeText(item.text)}\n`);
    return false;
  }

  /** Ends the answer with a newline when it did not. */
  finish(): void {
    if (this.lastItem) this.sinks.out("\n");
  }
}
