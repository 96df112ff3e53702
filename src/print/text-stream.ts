import { displayStatus, type SessionState } from "../session/state.js";

/** Where text output goes: stdout for the answer, stderr for activity. */
export interface PrintSinks {
  out(text: string): void;
  err(text: string): void;
}

/**
 * Streams a session in `--output-format text`: the agent's message text to stdout as it grows,
 * one line per tool call start and finish to stderr. It remembers what it already wrote, so it
 * can be called with every new state.
 */
export class TextStream {
  private written = new Map<string, number>();
  private lastItem?: string;
  private toolSeen = new Map<string, string>();

  constructor(private readonly sinks: PrintSinks, private readonly isOurs: (turnId: string) => boolean) {}

  update(state: SessionState): void {
    for (const item of state.items) {
      if (item.turnId !== undefined && !this.isOurs(item.turnId)) continue;
      if (item.kind === "agent") {
        const done = this.written.get(item.id) ?? 0;
        if (item.text.length <= done) continue;
        if (done === 0 && this.lastItem && this.lastItem !== item.id) this.sinks.out("\n\n");
        this.sinks.out(item.text.slice(done));
        this.written.set(item.id, item.text.length);
        this.lastItem = item.id;
      } else if (item.kind === "tool") {
        const tool = state.toolCalls[item.toolCallId];
        if (!tool) continue;
        const status = displayStatus(tool);
        if (this.toolSeen.get(tool.toolCallId) === status) continue;
        const first = !this.toolSeen.has(tool.toolCallId);
        this.toolSeen.set(tool.toolCallId, status);
        if (first || status !== "pending") this.sinks.err(`[tool] ${tool.title || tool.toolCallId} (${tool.kind ?? "other"}): ${status}\n`);
      } else if (item.kind === "notice") {
        if (!this.written.has(item.id)) this.sinks.err(`[${item.level}] ${item.text}\n`);
        this.written.set(item.id, 1);
      }
    }
  }

  /** Ends the answer with a newline when it did not. */
  finish(): void {
    if (this.lastItem) this.sinks.out("\n");
  }
}
