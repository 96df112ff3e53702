import { exitTerminal } from "./apply-terminal.js";
import { noteDetachedEnd } from "./apply-command.js";
import { closeAsCancelled } from "./apply-tool-call.js";
import { beginAgentWork, endAgentTurns } from "./agent-work.js";
import type { Draft } from "./draft.js";
import { endReplayTail } from "./local-history.js";
import type { TurnSignal } from "./profiles/profile.js";
import { readSignalNotification } from "./profiles/turn-signals.js";
import { isFinalStatus } from "./state.js";

/** The background task an agent's own turn just reported on: the oldest that ended, else the oldest. */
function markReported(d: Draft): void {
  const open = Object.values(d.s.background).filter((t) => t.reportedAt === undefined && t.abandonedAt === undefined);
  const task = open.find((t) => t.endedAt !== undefined) ?? open[0];
  if (task) d.background()[task.taskId] = { ...task, reportedAt: d.at };
}

/** Applies what a profile read in the agent's traffic. Signals replayed as history change nothing live. */
export function applySignal(d: Draft, sig: TurnSignal, history: boolean): void {
  const s = d.s;
  switch (sig.signal) {
    case "block_break":
      s.blockBreak = true;
      return;
    case "replay_over":
      endReplayTail(d);
      return;
    case "call_cancelled":
      closeAsCancelled(d, sig.toolCallId);
      return;
    case "agent_state":
      s.agentState = sig.state;
      s.agentBackground = sig.background;
      if (sig.state === "idle" && s.pendingPrompts.length === 0) endAgentTurns(d);
      else if (sig.state !== "idle" && !s.replaying) beginAgentWork(d);
      return;
    default:
      break;
  }
  if (history) return;
  switch (sig.signal) {
    case "turn_marker":
      s.turnMarkers = true;
      if (sig.origin === "agent") {
        markReported(d);
        if (s.pendingPrompts.length === 0) endAgentTurns(d);
      }
      return;
    case "background_started":
      if (s.background[sig.taskId]) return;
      d.background()[sig.taskId] = {
        taskId: sig.taskId,
        toolCallId: sig.toolCallId,
        label: sig.label || (sig.toolCallId ? d.tool(sig.toolCallId)?.title : undefined) || sig.taskId,
        startedAt: d.at,
      };
      return;
    case "background_ended": {
      const task = s.background[sig.taskId];
      if (!task || task.endedAt !== undefined) return;
      d.background()[sig.taskId] = { ...task, endedAt: d.at };
      s.backgroundEndedAt = d.at;
      return;
    }
    case "exit_seen": {
      const tool = d.tool(sig.toolCallId);
      if (!tool || isFinalStatus(tool)) return;
      d.setTool({ ...tool, status: sig.exitCode === 0 ? "completed" : "failed", detached: false, endedAt: d.at });
      if (tool.terminalId && s.terminals[tool.terminalId] && !s.terminals[tool.terminalId].exited)
        exitTerminal(d, tool.terminalId, sig.exitCode, null);
      if (tool.detached) noteDetachedEnd(d, tool, `exit ${sig.exitCode}`);
      if (s.pendingPrompts.length === 0) s.backgroundEndedAt = d.at;
      return;
    }
  }
}

/** An extension notification that carries a turn signal (`_session/turn_ended`): every agent's is accepted. */
export function applyAgentSignal(d: Draft, method: string, params: unknown): void {
  d.s.lastAgentActivityAt = d.at;
  for (const sig of readSignalNotification(method, params)) applySignal(d, sig, d.s.replaying);
}
