import { useEffect, useState } from "react";
import { SPINNER_FRAMES } from "./theme.js";

const FRAME_MS = 80;

/** A spinner frame that advances only while `active`; no timer runs otherwise. */
export function useSpinner(active: boolean): string {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setFrame((f) => (f + 1) % SPINNER_FRAMES.length), FRAME_MS);
    return () => clearInterval(timer);
  }, [active]);
  return SPINNER_FRAMES[frame] ?? SPINNER_FRAMES[0];
}
