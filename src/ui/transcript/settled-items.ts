import { reportedInBackground } from "../../session/profiles/display-of.js";
import { isFinalStatus, type SessionState, type ToolCallView } from "../../session/state.js";
import { turnById } from "../../session/turn-lookup.js";

/** Terminal ids a tool call shows: the one it was tied to, and any in its content. */
export function toolTerminalIds(tool: ToolCallView): string[] {
  const ids = tool.terminalId ? [tool.terminalId] : [];
  for (const c of tool.content) if (c.type === "terminal" && !ids.includes(c.terminalId)) ids.push(c.terminalId);
  return ids;
}

function turnEnded(state: SessionState, turnId: string | undefined): boolean {
  if (turnId === undefined) return true;
  const turn = turnById(state, turnId);
  return !turn || turn.endedAt !== undefined;
}

/** Whether a tool call can still change what it shows: not final, or a terminal of its still running. */
function toolIsOpen(state: SessionState, tool: ToolCallView): boolean {
  // A command conch's log saw running: whether the replay's "completed" is true is known at the replay's end.
  if (state.replaying && state.replayLocal?.tools[tool.toolCallId]?.openAtEnd) return true;
  // conch closed it itself (rejected, cancelled, stalled, interrupted): a pane that never exits changes nothing.
  if (tool.localStatus) return false;
  // Running on in the agent's own session after its turn: live while the agent reports on it
  // (its output and end still come), else shown so without holding the transcript.
  if (tool.detached) return reportedInBackground(state, tool);
  if (!isFinalStatus(tool)) return true;
  // A subagent's calls are drawn in its starter's card: that card changes while any of them runs.
  if (tool.subagentCalls?.some((id) => state.toolCalls[id] && !isFinalStatus(state.toolCalls[id]))) return true;
  // A terminal whose exit never comes must not pin the card forever once the session is idle.
  if (state.phase === "idle" || state.phase === "failed") return false;
  return toolTerminalIds(tool).some((id) => {
    const t = state.terminals[id];
    return t !== undefined && !t.exited;
  });
}

/**
 * Whether an item can no longer change, so it may be printed once into the scrollback. Dividers,
 * prompts and notices never change. Text can only grow while it is the last item of an open turn.
 * A plan is replaced in place until its turn ends. A tool call changes until it is final and its
 * terminal stopped; late updates often follow the final status, so it also waits for something
 * after it or for its turn to end.
 */
export function isSettled(state: SessionState, index: number): boolean {
  const item = state.items[index];
  const last = index === state.items.length - 1;
  switch (item.kind) {
    case "turn":
    case "user":
    case "interrupted":
    case "no_reply":
    case "notice":
    case "unknown":
      return true;
    case "shell": {
      // The user's command changes until it exits; the session's end stops a pane that never will.
      const term = state.terminals[item.terminalId];
      return !term || term.exited || state.phase === "failed";
    }
    case "agent":
    case "thought":
      return !last || turnEnded(state, item.turnId);
    case "plan":
      return turnEnded(state, item.turnId);
    case "tool": {
      const tool = state.toolCalls[item.toolCallId];
      if (!tool) return true;
      if (toolIsOpen(state, tool)) return false;
      return !last || turnEnded(state, item.turnId) || state.phase === "idle";
    }
  }
}
