import { useEffect, useRef, useState } from "react";
import { warmRenderers } from "../render/warm-up.js";
import { loadRenderLibs, renderLibsLoaded } from "../render/render-libs.js";

/**
 * Whether transcript content can be drawn. Its libraries (markdown, highlighting, diff) are not
 * needed for the first frame and take tens of milliseconds to load, so they load right after it:
 * a resumed session starts printing while its replay still arrives, and a prompt sent at once finds
 * them loaded instead of waiting for them.
 */
export function useRenderLibs(): boolean {
  const [ready, setReady] = useState(renderLibsLoaded);
  useEffect(() => {
    if (ready) return;
    let mounted = true;
    // A timer, not the effect itself: the first frame goes out first.
    const timer = setTimeout(() => {
      void loadRenderLibs().then(() => {
        if (mounted) setReady(true);
      });
    }, 0);
    return () => {
      mounted = false;
      clearTimeout(timer);
    };
  }, [ready]);
  return ready;
}

/**
 * Runs the row renderers' warm-up once, when `now` is true: the transcript's libraries are loaded
 * and nothing is on its way to the agent (`mayWarmUp`), so it fills idle time instead of delaying a
 * prompt. Before each step it asks `proceed` (of the session's latest state, which a render can lag
 * behind by a frame): a no (a prompt queued, a terminal printing) stops it there, and it goes on
 * the next time `now` is true.
 */
export function useWarmUp(now: boolean, proceed: () => boolean): void {
  const latest = useRef(proceed);
  latest.current = proceed;
  const goOn = useRef<(() => void) | undefined>(undefined);
  useEffect(() => {
    if (!now) return;
    if (goOn.current) goOn.current();
    else goOn.current = warmRenderers(undefined, () => latest.current());
  }, [now]);
}
