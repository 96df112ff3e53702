import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { OpenWorkKind } from "../session/events.js";
import { openWork } from "../session/open-work.js";
import { DEFAULT_TIMING, quietPeriod, type TurnTiming } from "../session/quiet-period.js";
import type { SessionState } from "../session/state.js";

/** What the orchestrator should do next, decided from state alone. */
export type TurnAction =
  | { type: "send_queued"; id: string; text: string; blocks?: ContentBlock[] }
  /** The drain is over: the turn ends (the orchestrator emits `settled`). */
  | { type: "settle" }
  | { type: "stall"; kind: OpenWorkKind; id: string }
  | { type: "wait"; until?: number }
  | { type: "none" };

/** Whether a message sent now goes out as a prompt at once (idle, nothing queued before it), or waits in the queue. */
export function sendsAtOnce(state: SessionState): boolean {
  return state.phase === "idle" && state.queue.length === 0;
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
