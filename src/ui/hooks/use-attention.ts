import { useEffect, useRef } from "react";
import type { SessionState } from "../../session/state.js";
import { attentionStep, INITIAL_ATTENTION, type AttentionMemory } from "../status/attention.js";

/** Calls `notify` when a long turn ends or a permission waits in one (see attentionStep). */
export function useAttention(state: SessionState, notify: ((message: string) => void) | undefined, now: () => number = Date.now): void {
  const memory = useRef<AttentionMemory>(INITIAL_ATTENTION);
  useEffect(() => {
    const step = attentionStep(memory.current, state, now());
    memory.current = step.memory;
    if (step.message) notify?.(step.message);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);
}
