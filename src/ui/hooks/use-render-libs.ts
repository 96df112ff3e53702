import { useEffect, useState } from "react";
import { loadRenderLibs, renderLibsLoaded } from "../components/render-libs.js";

/**
 * Whether transcript content can be drawn: its libraries (markdown, highlighting, diff) load
 * once the first frame is out, so the input is usable before they are.
 */
export function useRenderLibs(): boolean {
  const [ready, setReady] = useState(renderLibsLoaded);
  useEffect(() => {
    if (ready) return;
    let mounted = true;
    // A timer, not the effect itself: the first frame and the keys typed so far go first.
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
