import type { SessionEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";

/** How long a step of a quiet fold of a resumed log runs before keys get a turn. */
export const FOLD_STEP_MS = 8;
/** Events folded between looks at the clock (a draft each: ~0.3 ms here). */
const FOLD_STEP_EVENTS = 256;

/**
 * Runs `each` on `events` in order, a part of `FOLD_STEP_EVENTS` at a time, for `budgetMs` a task,
 * with a turn of the event loop between tasks, where keys typed meanwhile are read.
 */
export async function inSteps(
  events: readonly SessionEvent[],
  budgetMs: number,
  each: (part: readonly SessionEvent[]) => void,
): Promise<void> {
  let from = 0;
  while (from < events.length) {
    const deadline = performance.now() + budgetMs;
    do {
      const to = Math.min(events.length, from + FOLD_STEP_EVENTS);
      each(events.slice(from, to));
      from = to;
    } while (from < events.length && performance.now() < deadline);
    if (from < events.length) await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A log is the past: the agent that announced itself to this session (its process, its
 * capabilities, whether it steers) is the one running now, not the last one the log saw.
 */
export function withLiveAgent(after: SessionState, before: SessionState): SessionState {
  if (!before.agent) return after;
  return { ...after, agent: before.agent, agentStoppingAt: before.agentStoppingAt };
}
