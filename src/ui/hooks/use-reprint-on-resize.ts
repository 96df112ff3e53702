import { measureElement, useStdout, type DOMElement } from "ink";
import { useEffect, useRef, useState, type RefObject } from "react";

/** Clears the screen and the scrollback, then homes the cursor: what a reprint starts with. */
export const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";

/** Waits this long after the last resize before printing the transcript again at the new width. */
const REPRINT_AFTER_RESIZE_MS = 200;

/**
 * Printed lines do not reflow: once resizing stops, `reprint` prints the transcript again at the
 * new width. Nor can a frame's rows be taken back once the terminal pushed them into its
 * scrollback, which it does with the top rows of a frame taller than the rows it keeps: the
 * transcript is printed again then too, or a copy of the live region would stay in the record.
 */
export function useReprintOnResize(width: number, reprint: () => void, frameRef?: RefObject<DOMElement | null>): void {
  const { stdout } = useStdout();
  const firstWidth = useRef(width);
  // Resizes that pushed rows of the frame into the scrollback; the last one reprinted for.
  const [pushed, setPushed] = useState(0);
  const reprinted = useRef(0);
  useEffect(() => {
    let rows = stdout.rows;
    const onResize = () => {
      // Ink laid the frame out again before this listener (it listens first): its height is the last frame's.
      const height = frameRef?.current ? measureElement(frameRef.current).height : 0;
      if (rows && stdout.rows && stdout.rows < rows && height >= stdout.rows) setPushed((n) => n + 1);
      rows = stdout.rows;
    };
    stdout.on("resize", onResize);
    return () => {
      stdout.off("resize", onResize);
    };
  }, [stdout, frameRef]);
  // The latest `reprint`, read when the timer fires: a new one each render (a spinner's frame) must
  // not start the wait again, or the reprint never comes while anything on screen moves.
  const latest = useRef(reprint);
  latest.current = reprint;
  useEffect(() => {
    if (width === firstWidth.current && pushed === reprinted.current) return;
    const timer = setTimeout(() => {
      firstWidth.current = width;
      reprinted.current = pushed;
      latest.current();
    }, REPRINT_AFTER_RESIZE_MS);
    return () => clearTimeout(timer);
  }, [width, pushed]);
}
