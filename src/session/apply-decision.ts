import { currentTurn } from "./apply-update.js";
import { upsertToolCall } from "./apply-tool-call.js";
import type { Draft } from "./draft.js";
import type { SessionEvent } from "./events.js";
import { isFinalStatus } from "./state.js";
import { closeAskedOnly } from "./turn-ends.js";

// What waits for a person: the agent's permission requests and its questions, asked and answered.

type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

/** A permission request waits; the call it is about is merged from the request's copy of it. */
export function applyPermissionAsked(d: Draft, ev: EventOf<"permission_asked">): void {
  const tc = ev.request.toolCall;
  const history = false;
  const announced = d.tool(tc.toolCallId) !== undefined;
  const tool = upsertToolCall(d, tc, () => currentTurn(d, history), history);
  if (!announced) d.setTool({ ...tool, askedOnly: true });
  d.permissions().push({ key: ev.key, toolCallId: tc.toolCallId, options: ev.request.options, request: ev.request, askedAt: ev.at });
  d.s.lastAgentActivityAt = ev.at;
}

/** A request answered or withdrawn: its call records the decision, and a refusal closes the call. */
export function applyPermissionClosed(d: Draft, ev: EventOf<"permission_answered" | "permission_withdrawn">): void {
  const perms = d.permissions();
  const idx = perms.findIndex((p) => p.key === ev.key);
  if (idx < 0) return;
  const [p] = perms.splice(idx, 1);
  const tool = d.tool(p.toolCallId);
  if (!tool) return;
  if (ev.type === "permission_withdrawn") {
    d.setTool({ ...tool, permission: { outcome: "cancelled", source: "agent" } });
    return;
  }
  const outcome = ev.outcome;
  const option = outcome.outcome === "selected" ? p.options.find((o) => o.optionId === outcome.optionId) : undefined;
  const rejected = option?.kind === "reject_once" || option?.kind === "reject_always";
  const cancelled = outcome.outcome === "cancelled";
  const closeAs = rejected ? "rejected" : cancelled ? "cancelled" : undefined;
  d.setTool({
    ...tool,
    permission: {
      outcome: outcome.outcome,
      optionName: option?.name,
      optionKind: option?.kind,
      source: ev.source,
      ...(ev.via ? { via: ev.via } : {}),
      ...(ev.rule ? { rule: { text: ev.rule.text, from: ev.rule.from } } : {}),
    },
    // The answer is the call's latest sign of life: a person's slow answer is no stall of the agent's.
    lastAt: ev.at,
    localStatus: closeAs && !isFinalStatus(tool) ? closeAs : tool.localStatus,
    endedAt: closeAs && !isFinalStatus(tool) ? ev.at : tool.endedAt,
  });
  // Answered after its turn ended: nothing will ever close a call the agent never announced.
  if (d.turn(tool.turnId)?.endedAt !== undefined) closeAskedOnly(d, new Set([tool.turnId]));
}

/** The agent asks the person something: it waits, and the transcript says what was asked. */
export function applyQuestionAsked(d: Draft, ev: EventOf<"question_asked">): void {
  const s = d.s;
  d.questions().push({ key: ev.key, request: ev.request, askedAt: ev.at });
  d.addItem({
    kind: "notice",
    id: d.nextId("i"),
    turnId: s.currentTurnId,
    level: "info",
    text: `${s.info?.agentName ?? "the agent"} asks: ${ev.request.message}`,
    question: true,
  });
  s.lastAgentActivityAt = ev.at;
}

/** A question answered: it no longer waits, and the transcript says how it was answered. */
export function applyQuestionAnswered(d: Draft, ev: EventOf<"question_answered">): void {
  const qs = d.questions();
  const idx = qs.findIndex((q) => q.key === ev.key);
  if (idx < 0) return;
  qs.splice(idx, 1);
  d.addItem({
    kind: "notice",
    id: d.nextId("i"),
    turnId: d.s.currentTurnId,
    level: "info",
    text: `answered: ${ev.response.action}`,
    question: true,
  });
}
