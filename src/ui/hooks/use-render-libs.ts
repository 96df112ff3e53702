import { useEffect, useState } from "react";
import { loadRenderLibs, renderLibsLoaded } from "../render/render-libs.js";

/** With nothing to draw, the libraries load this long after the first frame, when typing has begun. */
const IDLE_LOAD_MS = 1000;

/**
 * Whether transcript content can be drawn. Its libraries (markdown, highlighting, diff) are not
 * needed for the first frame, and loading them blocks for tens of milliseconds, so they load once
 * there is something to draw (`needed`), or a while after the first frame to be ready when there is.
 * Keys typed meanwhile are not held up.
 */
export function useRenderLibs(needed: boolean): boolean {
  const [ready, setReady] = useState(renderLibsLoaded);
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setIdle(true), IDLE_LOAD_MS);
    return () => clearTimeout(timer);
  }, [ready]);
  const load = !ready && (needed || idle);
  useEffect(() => {
    if (!load) return;
    let mounted = true;
    // A timer, not the effect itself: the frame that asked for them goes out first.
    const timer = setTimeout(() => {
      void loadRenderLibs().then(() => {
        if (mounted) setReady(true);
      });
    }, 0);
    return () => {
      mounted = false;
      clearTimeout(timer);
    };
  }, [load]);
  return ready;
}
