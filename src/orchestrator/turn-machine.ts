import type { ContentBlock } from "@agentclientprotocol/sdk";
import { openWork } from "../session/open-work.js";
import type { SessionState } from "../session/state.js";

/** Timing knobs of the turn machine, in ms. */
export interface TurnTiming {
  /** Quiet period after the last agent activity before a draining turn may settle. */
  quietMs: number;
  /** A tool call with no sign of life for this long, while draining, is reported stalled. */
  stallMs: number;
  /** The quiet period after a `session/load` replay: its tail (gemini) follows the response within ms. */
  replayQuietMs: number;
}

export const DEFAULT_TIMING: TurnTiming = { quietMs: 500, stallMs: 120_000, replayQuietMs: 300 };

/** What the orchestrator should do next, decided from state alone. */
export type TurnAction =
  | { type: "send_queued"; id: string; text: string; blocks?: ContentBlock[] }
  | { type: "settle" }
  | { type: "stall"; toolCallId: string }
  | { type: "wait"; until?: number }
  | { type: "none" };

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
  // Tool calls and their terminals can go silent for good (codex leaves calls open; a pane may never get its exit).
  const stallable = work.filter((w) => w.toolCallId !== undefined);
  for (const w of stallable) {
    if (now - w.since >= timing.stallMs) return { type: "stall", toolCallId: w.toolCallId! };
  }
  if (work.length > 0) {
    const nextStall = stallable.length ? Math.min(...stallable.map((w) => w.since + timing.stallMs)) : undefined;
    return { type: "wait", until: nextStall };
  }
  const quietAt = state.lastAgentActivityAt + (state.replayTail && state.turns.every((t) => t.endedAt !== undefined) ? timing.replayQuietMs : timing.quietMs);
  if (now >= quietAt) return { type: "settle" };
  return { type: "wait", until: quietAt };
}
