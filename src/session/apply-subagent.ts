import type { SessionUpdate, ToolCallStatus } from "@agentclientprotocol/sdk";
import { upsertToolCall } from "./apply-tool-call.js";
import { contentText } from "./content-text.js";
import type { Draft } from "./draft.js";
import type { LocalToolStatus } from "./state.js";

// The ACP subagents draft (RFD, agent-client-protocol PR #1992): a subagent is a session of its own.
// Its parent session gets `subagent_spawned {subagentSessionId, name, task}` and, at its end,
// `subagent_state_update {subagentSessionId, state}`; the subagent's own updates come with its
// session id. conch shows a subagent as one call (its own status, a fold of what it did).

/** The call that stands for a subagent session. */
export const subagentCallId = (sessionId: string) => `subagent:${sessionId}`;

const STATUS: Record<string, { status?: ToolCallStatus; local?: LocalToolStatus }> = {
  running: { status: "in_progress" },
  completed: { status: "completed" },
  failed: { status: "failed" },
  cancelled: { local: "cancelled" },
  // The draft's "outcome unknown" (the connection to it ended): never shown as running.
  disconnected: { local: "interrupted" },
};

/** The call of a subagent session this update came from, when it came from one. */
export function subagentSessionCall(d: Draft, sessionId: string | undefined): string | undefined {
  if (!sessionId || sessionId === d.s.info?.sessionId) return undefined;
  return d.s.subagentSessions?.[sessionId];
}

/**
 * `subagent_spawned` / `subagent_state_update` on a session conch shows: a subagent starts, or
 * its state changes. False for any other kind. `parentCall` is set when the parent is a subagent too.
 */
export function applySubagentLifecycle(d: Draft, u: SessionUpdate, history: boolean, turn: () => string, parentCall?: string): boolean {
  const r = u as {
    sessionUpdate?: unknown;
    subagentSessionId?: unknown;
    name?: unknown;
    task?: unknown;
    prompt?: unknown;
    state?: unknown;
  };
  if (r.sessionUpdate !== "subagent_spawned" && r.sessionUpdate !== "subagent_state_update") return false;
  if (typeof r.subagentSessionId !== "string" || r.subagentSessionId === "") return true;
  const id = subagentCallId(r.subagentSessionId);
  if (r.sessionUpdate === "subagent_spawned") {
    const name = typeof r.name === "string" && r.name ? r.name : "subagent";
    const task = typeof r.task === "string" ? r.task : undefined;
    d.s.subagentSessions = { ...d.s.subagentSessions, [r.subagentSessionId]: id };
    upsertToolCall(
      d,
      {
        toolCallId: id,
        title: task ? `${name}: ${task}` : name,
        kind: "think",
        status: "in_progress",
        rawInput: { name, task, prompt: r.prompt },
      },
      turn,
      history,
      parentCall,
    );
    return true;
  }
  const tool = d.tool(id);
  const next = typeof r.state === "string" ? STATUS[r.state] : undefined;
  if (!tool || !next) return true;
  if (next.status) upsertToolCall(d, { toolCallId: id, status: next.status }, turn, history);
  else if (!tool.localStatus) d.setTool({ ...d.tool(id)!, localStatus: next.local, endedAt: d.at });
  return true;
}

/**
 * An update from a subagent's own session: its calls join its fold, its words become the call's
 * text. Its mode, model, commands and usage are its own: they never change this session's.
 */
export function applySubagentUpdate(d: Draft, callId: string, u: SessionUpdate, history: boolean, turn: () => string): void {
  if (applySubagentLifecycle(d, u, history, turn, callId)) return;
  if (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") {
    upsertToolCall(d, u, turn, history, callId);
    return;
  }
  if (u.sessionUpdate !== "agent_message_chunk") return;
  const call = d.tool(callId);
  const text = contentText(u.content);
  if (!call || text === "") return;
  const said = call.content.length === 1 && call.content[0].type === "content" ? contentText(call.content[0].content) : "";
  d.setTool({ ...call, content: [{ type: "content", content: { type: "text", text: said + text } }], lastAt: d.at });
}
