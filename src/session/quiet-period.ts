import { reportsBack } from "./open-work.js";
import { profileOf } from "./profiles/select-profile.js";
import type { SessionState } from "./state.js";
import { openTurnOf } from "./turn-lookup.js";

// How long a drain with nothing open still waits, for an agent that gives no word of its own that
// its turn is over. A selector of the state: the turn machine (orchestrator/turn-machine.ts) acts
// on it, the status line says it.

/** Timing knobs of the turn machine (orchestrator/turn-machine.ts), in ms. Only agents that give no signal meet the quiet periods. */
export interface TurnTiming {
  /** Quiet after the last agent activity before a drain with nothing open ends (agents with no turn signal). */
  quietMs: number;
  /** The same after background work ended during the drain: a follow-up turn takes a model's latency to start. */
  backgroundQuietMs: number;
  /** Open work with no sign of life for this long is reported stalled and no longer waited on. */
  stallMs: number;
  /** The quiet period after a `session/load` replay that may go on past its response (gemini). */
  replayQuietMs: number;
}

export const DEFAULT_TIMING: TurnTiming = { quietMs: 500, backgroundQuietMs: 5000, stallMs: 120_000, replayQuietMs: 300 };

/** Why a drain with nothing open still waits, and until when. */
export interface QuietPeriod {
  until: number;
  /** A load's replay may go on; the agent started work on its own; background work ended; the agent just streamed. */
  reason: "replay" | "agent_turn" | "background" | "streaming";
}

/**
 * The quiet period a drain with no open work still waits for, or undefined when the agent's own
 * word already says the work is over: its `state_update`, its turn markers, or a prompt response
 * that (for this agent) ends the turn.
 */
export function quietPeriod(state: SessionState, timing: TurnTiming = DEFAULT_TIMING): QuietPeriod | undefined {
  const last = state.lastAgentActivityAt;
  if (state.replayTail) return { until: last + timing.replayQuietMs, reason: "replay" };
  if (state.agentState !== undefined) return undefined;
  const ownTurn = state.pendingPrompts.length === 0 && openTurnOf(state, "agent") !== undefined;
  if (ownTurn && !reportsBack(state)) return { until: last + timing.quietMs, reason: "agent_turn" };
  if (profileOf(state).turns.endsAtResponse) return undefined;
  // An agent that marks the end of its turns (`_session/turn_ended`, the `_claude/origin` marker) said so.
  if (state.turnMarkers && !ownTurn) return undefined;
  const afterBackground = state.backgroundEndedAt !== undefined && state.backgroundEndedAt >= (state.drainStartedAt ?? 0);
  return afterBackground
    ? { until: last + timing.backgroundQuietMs, reason: "background" }
    : { until: last + timing.quietMs, reason: "streaming" };
}
