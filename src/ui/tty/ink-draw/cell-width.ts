import stringWidth from "string-width";
import { narrowWidth } from "../../render/ascii-wrap.js";
import { RecentCache } from "./recent-cache.js";

const widths = new RecentCache<number>(4096);

/**
 * Terminal cells a (possibly styled) string takes, by Ink's measure (`string-width`), kept for the
 * strings of recent frames. Narrow characters and SGR only (a pane's rows inside their `│` border)
 * are counted without string-width's grapheme segmenting, which a flooding pane paid on every row
 * of every frame; `narrowWidth` gives string-width's answer for them (its test checks that).
 */
export function cellWidth(text: string): number {
  return widths.get(text, measure);
}

function measure(text: string): number {
  return narrowWidth(text) ?? stringWidth(text);
}
