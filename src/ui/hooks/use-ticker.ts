import { useEffect, useState } from "react";

/** How often running things (spinners, elapsed times) are redrawn. */
const TICK_MS = 100;

/** A frame counter and clock that move every tick while `active`; frozen (no timer) otherwise. */
export function useTicker(active: boolean): { frame: number; now: number } {
  const [tick, setTick] = useState(() => ({ frame: 0, now: Date.now() }));
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((t) => ({ frame: t.frame + 1, now: Date.now() })), TICK_MS);
    return () => clearInterval(timer);
  }, [active]);
  return tick;
}
