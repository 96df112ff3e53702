import { exitTerminal, openTerminal } from "./apply-terminal.js";
import type { Draft } from "./draft.js";
import type { SessionEvent } from "./events.js";
import { profileOf } from "./profiles/select-profile.js";
import { isFinalStatus, type ToolCallView } from "./state.js";
import { noteStoppedCall } from "./stop-notes.js";

// What conch learns about commands outside the agent's words: the process table's answer about a
// call the agent left running, the person's stop, and the person's own commands.

type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

/**
 * The process table's answer about a call's command. Running: its pids are kept (the card and the
 * tasks view say so). Gone: the call ends, as "ended" since nobody said how; a pane the agent never
 * closed stops. A call that had already been shown running on after its turn gets a line in the
 * transcript too, since its card may already be in the scrollback.
 */
export function applyCommandChecked(d: Draft, ev: EventOf<"command_checked">): void {
  const tool = d.tool(ev.toolCallId);
  if (!tool || isFinalStatus(tool)) return;
  if (ev.running) {
    d.setTool({ ...tool, pids: ev.pids ?? [] });
    return;
  }
  d.setTool({ ...tool, localStatus: "ended", endedAt: d.at, detached: undefined });
  const term = tool.terminalId ? d.s.terminals[tool.terminalId] : undefined;
  if (term && !term.exited && term.source === "display") exitTerminal(d, term.terminalId, null, null);
  if (d.s.pendingPrompts.length === 0) d.s.backgroundEndedAt = d.at;
  if (tool.detached) {
    const agent = profileOf(d.s).label;
    noteDetachedEnd(d, tool, `it is no longer among ${agent}'s processes (${agent} did not report how it ended)`);
  }
}

/**
 * A call shown running on in the agent's session after its turn ended: its card may already be in
 * the scrollback saying so, so its end is a line of its own in the transcript, saying how.
 */
export function noteDetachedEnd(d: Draft, tool: ToolCallView, how: string): void {
  if (noteStoppedCall(d, tool, how)) return;
  const text = `\`${tool.title || tool.toolCallId}\`, left running after its turn, has ended: ${how}`;
  d.addItem({ kind: "notice", id: d.nextId("i"), turnId: tool.turnId, level: "info", text });
}

/** How a call that ran on ended, in words: its exit code where its terminal or the agent said. */
export function endWords(d: Draft, tool: ToolCallView): string {
  const term = tool.terminalId ? d.s.terminals[tool.terminalId] : undefined;
  if (term?.signal) return `signal ${term.signal}`;
  if (typeof term?.exitCode === "number") return `exit ${term.exitCode}`;
  return tool.status === "failed" ? "failed" : "completed";
}

/** A client terminal started; the user's own command (`!cmd`) also gets its place in the transcript. */
export function applyTerminalStarted(d: Draft, ev: EventOf<"terminal_started">): void {
  const line = [ev.command, ...ev.args].join(" ");
  // The user's `$SHELL -c <line>`: the line is what the person typed.
  const command = ev.by === "user" && ev.args.length === 2 && ev.args[0] === "-c" ? ev.args[1] : line;
  openTerminal(d, { terminalId: ev.terminalId, source: "client", command, cwd: ev.cwd, history: false, ...(ev.by ? { by: ev.by } : {}) });
  if (ev.by !== "user") return;
  d.addItem({ kind: "shell", id: d.nextId("i"), terminalId: ev.terminalId, command, turnId: d.s.currentTurnId, history: false });
}

/** The person asked for a stop: what becomes of the task comes in its own events (an exit, a check). */
export function applyStopRequested(d: Draft, ev: EventOf<"task_stop_requested">): void {
  d.s.stopRequests = { ...d.s.stopRequests, [ev.taskId]: d.at };
}
