import { endAgentTurns } from "./agent-work.js";
import type { Draft } from "./draft.js";
import type { OpenWorkKind } from "./events.js";
import { agentLabel } from "./profiles/select-profile.js";

/** A warning in the transcript, in the current turn: what conch stopped waiting for. */
function warn(d: Draft, text: string): void {
  d.addItem({ kind: "notice", id: d.nextId("i"), turnId: d.s.currentTurnId, level: "warning", text });
}

/** What conch gives up waiting for when open work stalls; the notice says it. */
export function applyStall(d: Draft, kind: OpenWorkKind, id: string): void {
  const s = d.s;
  const agent = agentLabel(s);
  switch (kind) {
    case "tool": {
      // Also a finished call whose terminal never reported an exit: it stops holding the turn open.
      const tool = d.tool(id);
      if (tool && !tool.localStatus) d.setTool({ ...tool, localStatus: "stalled" });
      return;
    }
    case "terminal": {
      const term = s.terminals[id];
      if (!term) return;
      const tool = term.toolCallId ? d.tool(term.toolCallId) : undefined;
      if (tool && !tool.localStatus) d.setTool({ ...tool, localStatus: "stalled" });
      else d.terminals()[id] = { ...term, exited: true, exitCode: null, signal: null };
      warn(d, `no output from \`${term.command ?? id}\` for a long while: no longer waiting for it`);
      return;
    }
    case "report": {
      const task = s.background[id];
      if (!task || task.reportedAt !== undefined || task.abandonedAt !== undefined) return;
      d.background()[id] = { ...task, abandonedAt: d.at };
      warn(d, `${agent} has not reported on \`${task.label}\`: no longer waiting for it`);
      return;
    }
    case "agent_turn":
      endAgentTurns(d);
      warn(d, `${agent} went silent during its own turn: no longer waiting for it`);
      return;
    case "agent_state":
      s.agentState = "idle";
      s.agentBackground = undefined;
      warn(d, `${agent} still says it is working but has been silent: no longer waiting for it`);
      return;
    case "permission":
      return;
  }
}
