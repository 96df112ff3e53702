import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { foldEvents } from "../../../src/session/reduce.js";
import type { SessionEvent } from "../../../src/session/events.js";
import type { PendingPermission, SessionState, ToolCallView } from "../../../src/session/state.js";
import { readTrace, traceToEvents } from "../../support/trace-events.js";

export const CLAUDE_S2 = "claude-agent-acp-0.23.1/s2-bash-permission.jsonl";
export const CLAUDE_S2_TERM = "claude-agent-acp-0.23.1/s2-bash-permission.terminal_output.jsonl";
export const CLAUDE_S3 = "claude-agent-acp-0.23.1/s3-edit-diff.jsonl";
export const CLAUDE_S7 = "claude-agent-acp-0.23.1/s7-todowrite-plan.jsonl";
export const CODEX_C2 = "codex-acp-0.16.0/c2.jsonl";
export const CODEX_C4 = "codex-acp-0.16.0/c4.jsonl";
export const GEMINI_G3 = "gemini-cli-0.61.0/g3.jsonl";

/** The session state after a whole trace. */
export function finalState(rel: string): SessionState {
  return foldEvents(traceToEvents(rel));
}

/** The session state right after the first event matching `pred` (inclusive). */
export function stateAt(rel: string, pred: (e: SessionEvent) => boolean): SessionState {
  const events = traceToEvents(rel);
  const i = events.findIndex(pred);
  if (i < 0) throw new Error(`no matching event in ${rel}`);
  return foldEvents(events.slice(0, i + 1));
}

/** The nth (0-based) `session/request_permission` of a trace, as a pending permission. */
export function permissionFromTrace(rel: string, n = 0): PendingPermission {
  const requests = readTrace(rel).filter((l) => l.dir === "agent" && l.msg?.method === "session/request_permission");
  const msg = requests[n]?.msg;
  if (!msg) throw new Error(`no permission request #${n} in ${rel}`);
  const request = msg.params as unknown as RequestPermissionRequest;
  return { key: `agent:${String(msg.id)}`, toolCallId: request.toolCall.toolCallId, options: request.options, request, askedAt: 0 };
}

/** The first tool call of a state whose title matches. */
export function toolByTitle(state: SessionState, title: string | RegExp): ToolCallView {
  const tool = Object.values(state.toolCalls).find((t) => (typeof title === "string" ? t.title === title : title.test(t.title)));
  if (!tool) throw new Error(`no tool call titled ${String(title)}`);
  return tool;
}

/** Lets Ink flush a re-render triggered by input or a timer. */
export function tick(ms = 20): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
