import { useEffect, useState } from "react";
import type { Terminal } from "../../terminals/terminal.js";

/** ~30 fps: fast enough for progress bars, slow enough that a flood of output cannot starve input. */
export const SCREEN_FRAME_MS = 33;

/**
 * A counter that changes when the terminal's screen (or exit status) changed, at most once per
 * `frameMs`. The first change after a quiet period shows at once; a burst is coalesced into one
 * trailing redraw, so the last output is never left off screen.
 */
export function useThrottledScreen(terminal: Terminal, frameMs = SCREEN_FRAME_MS): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bump = () => {
      timer = undefined;
      last = Date.now();
      setVersion((v) => v + 1);
    };
    const onChange = () => {
      if (timer) return;
      const wait = frameMs - (Date.now() - last);
      if (wait <= 0) bump();
      else timer = setTimeout(bump, wait);
    };
    const offScreen = terminal.onScreenChange(onChange);
    const offExit = terminal.onExit(onChange);
    return () => {
      offScreen();
      offExit();
      if (timer) clearTimeout(timer);
    };
  }, [terminal, frameMs]);
  return version;
}
