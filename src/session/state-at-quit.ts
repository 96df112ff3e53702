import type { SessionEvent } from "./events.js";
import { reduceBatch } from "./reduce.js";
import type { SessionState } from "./state.js";

/**
 * The session as quitting leaves it, folded from what quitting does (see `closeSession`): every
 * pending permission and question is answered `cancelled`, a prompt in flight is cancelled, and
 * conch stops the agent and its process tree, so what ran on in its session ends with it. Quitting
 * draws its last frame from this, not from a state that would leave "awaiting permission" or
 * "running" in the scrollback for good.
 */
export function stateAtQuit(state: SessionState): SessionState {
  const at = state.lastAgentActivityAt;
  const events: SessionEvent[] = [
    ...state.permissions.map((p): SessionEvent => ({
      type: "permission_answered",
      at,
      key: p.key,
      outcome: { outcome: "cancelled" },
      source: "cancel",
    })),
    ...state.questions.map((q): SessionEvent => ({
      type: "question_answered",
      at,
      key: q.key,
      response: { action: "cancel" },
      source: "cancel",
    })),
  ];
  if (state.pendingPrompts.length) {
    events.push({ type: "cancel_requested", at });
    // The agent's answer comes after the last frame, if at all: the turn ends cancelled, as the cancel asked.
    for (const turnId of state.pendingPrompts) events.push({ type: "prompt_response", at, turnId, response: { stopReason: "cancelled" } });
  }
  events.push({ type: "agent_stopping", at });
  return reduceBatch(state, events);
}
