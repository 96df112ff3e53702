import { useEffect, useState } from "react";
import { loadRenderLibs, renderLibsLoaded } from "../render/render-libs.js";
import { warmRenderers } from "../render/warm-up.js";

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
        if (!mounted) return;
        setReady(true);
        // In the idle time before the agent's first answer, not in its way.
        warmRenderers();
      });
    }, 0);
    return () => {
      mounted = false;
      clearTimeout(timer);
    };
  }, [ready]);
  return ready;
}
