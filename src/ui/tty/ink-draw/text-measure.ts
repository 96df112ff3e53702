import cliTruncate from "cli-truncate";
import wrapAnsi from "wrap-ansi";
import { isNarrowSgr } from "../../render/ascii-wrap.js";
import { cellWidth } from "./cell-width.js";
import { RecentCache } from "./recent-cache.js";

// Ink measures and wraps every text of a frame, and keeps every text it ever measured or wrapped
// in caches that never forget: a stream's live region, a new text each frame, grew them without
// end. These are Ink's functions (widest-line, ink/build/measure-text.js and wrap-text.js, which
// the bundle replaces with these: scripts/bundle.mjs) over caches that keep what recent frames used.

const widest = new RecentCache<number>(512);
const measured = new RecentCache<{ width: number; height: number }>(512);
const wrapped = new RecentCache<string>(512);

/** The width of a text's widest line, each line's width kept. */
export function widestLine(text: string): number {
  return widest.get(text, () => {
    let width = 0;
    for (const line of text.split("\n")) width = Math.max(width, cellWidth(line));
    return width;
  });
}

/** A text's cells: its widest line and its number of lines. */
export function measureText(text: string): { width: number; height: number } {
  if (text.length === 0) return { width: 0, height: 0 };
  return measured.get(text, () => ({ width: widestLine(text), height: text.split("\n").length }));
}

/** A text fitted to `maxWidth` as a `<Text wrap>` says: wrapped, or cut at the end, middle or start. */
export function wrapText(text: string, maxWidth: number, wrapType: string): string {
  return wrapped.get(`${maxWidth}\u0000${wrapType}\u0000${text}`, () => {
    if (wrapType === "wrap") return wrapAnsi(text, maxWidth, { trim: false, hard: true });
    if (wrapType.startsWith("truncate")) {
      const position = wrapType === "truncate-middle" ? "middle" : wrapType === "truncate-start" ? "start" : "end";
      return cliTruncate(text, maxWidth, { position });
    }
    return text;
  });
}

/**
 * Ink's `sanitize` of every text it draws or measures, its results kept for the texts of recent
 * frames; a text whose lines are narrow characters and SGR only (`isNarrowSgr`: a pane's card, new
 * every frame of a flood) is its own sanitized text, as Ink keeps SGR, and is not tokenized again
 * to find that out.
 */
export function sanitizeKept(sanitize: (text: string) => string): (text: string) => string {
  const results = new RecentCache<string>(256);
  return (text) => (text.split("\n").every(isNarrowSgr) ? text : results.get(text, sanitize));
}
