import { useEffect, useRef } from "react";

/** Clears the screen and the scrollback, then homes the cursor: what a reprint starts with. */
export const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

/** Waits this long after the last resize before printing the transcript again at the new width. */
const REPRINT_AFTER_RESIZE_MS = 200;

/** Printed lines do not reflow: once resizing stops, `reprint` prints the transcript again at the new width. */
export function useReprintOnResize(width: number, reprint: () => void): void {
  const firstWidth = useRef(width);
  useEffect(() => {
    if (width === firstWidth.current) return;
    const timer = setTimeout(() => {
      firstWidth.current = width;
      reprint();
    }, REPRINT_AFTER_RESIZE_MS);
    return () => clearTimeout(timer);
  }, [width, reprint]);
}
