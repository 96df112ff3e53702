import type { Draft } from "./draft.js";
import { itemPosition, type SessionState, type ToolCallView } from "./state.js";

// A task the person stopped (tasks view, `s` then `y`) says so in the transcript once it has ended:
// its card shows only what the agent said about it ("completed", "exited"), which reads as if it
// ran to its end. One line per stop, whichever end comes first (the call's or its terminal's).

/** The tasks view's id of the stop asked for this call or its terminal, if one was. */
export function stopAskedFor(s: SessionState, toolCallId: string | undefined, terminalId: string | undefined): string | undefined {
  const asked = s.stopRequests;
  if (!asked) return undefined;
  if (terminalId !== undefined && asked[`term:${terminalId}`] !== undefined) return `term:${terminalId}`;
  if (toolCallId !== undefined && asked[`call:${toolCallId}`] !== undefined) return `call:${toolCallId}`;
  return undefined;
}

/** "`cmd` was stopped by you (signal SIGTERM)", once per stop; `how` adds an exit code or signal. */
export function noteStopped(d: Draft, taskId: string, label: string, how: string | undefined, turnId: string | undefined): void {
  const id = `stopped:${taskId}`;
  if (itemPosition(d.s, id) !== undefined) return;
  const code = how && /^(exit|signal) /.test(how) ? ` (${how})` : "";
  d.addItem({ kind: "notice", id, turnId, level: "info", text: `\`${label}\` was stopped by you${code}` });
}

/** The stopped task's end, as its call sees it; nothing when no stop was asked for it. */
export function noteStoppedCall(d: Draft, tool: ToolCallView, how: string | undefined): boolean {
  const taskId = stopAskedFor(d.s, tool.toolCallId, tool.terminalId);
  if (!taskId) return false;
  noteStopped(d, taskId, tool.title || tool.toolCallId, how, tool.turnId);
  return true;
}
