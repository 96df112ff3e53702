import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { OpenWorkKind } from "../session/events.js";
import { openWork, reportsBack } from "../session/open-work.js";
import { profileOf } from "../session/profiles/select-profile.js";
import type { SessionState } from "../session/state.js";

/** Timing knobs of the turn machine, in ms. Only agents that give no signal meet the quiet periods. */
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

/** What the orchestrator should do next, decided from state alone. */
export type TurnAction =
  | { type: "send_queued"; id: string; text: string; blocks?: ContentBlock[] }
  /** The drain is over: the turn ends (the orchestrator emits `settled`). */
  | { type: "settle" }
  | { type: "stall"; kind: OpenWorkKind; id: string }
  | { type: "wait"; until?: number }
  | { type: "none" };

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
  const ownTurn = state.pendingPrompts.length === 0 && state.turns.some((t) => t.origin === "agent" && t.endedAt === undefined);
  if (ownTurn && !reportsBack(state)) return { until: last + timing.quietMs, reason: "agent_turn" };
  if (profileOf(state).turns.endsAtResponse) return undefined;
  // An agent that marks the end of its turns (`_session/turn_ended`, the `_claude/origin` marker) said so.
  if (state.turnMarkers && !ownTurn) return undefined;
  const afterBackground = state.backgroundEndedAt !== undefined && state.backgroundEndedAt >= (state.drainStartedAt ?? 0);
  return afterBackground
    ? { until: last + timing.backgroundQuietMs, reason: "background" }
    : { until: last + timing.quietMs, reason: "streaming" };
}

/**
 * The turn machine's decision for this moment. Pure: the caller supplies `now` and turns the
 * answer into events and timers.
 */
export function nextAction(state: SessionState, now: number, timing: TurnTiming = DEFAULT_TIMING): TurnAction {
  if (state.phase === "idle" && state.queue.length > 0) {
    const [first] = state.queue;
    return { type: "send_queued", id: first.id, text: first.text, blocks: first.blocks };
  }
  if (state.phase !== "draining") return { type: "none" };
  const work = openWork(state);
  // Anything but a person's decision can go silent for good: a call codex never closes, a pane with no exit, a report that never comes.
  const stallable = work.filter((w) => w.stallable);
  for (const w of stallable) {
    if (now - w.since >= timing.stallMs) return { type: "stall", kind: w.kind, id: w.id };
  }
  if (work.length > 0) {
    const nextStall = stallable.length ? Math.min(...stallable.map((w) => w.since + timing.stallMs)) : undefined;
    return { type: "wait", until: nextStall };
  }
  const quiet = quietPeriod(state, timing);
  if (!quiet || now >= quiet.until) return { type: "settle" };
  return { type: "wait", until: quiet.until };
}
