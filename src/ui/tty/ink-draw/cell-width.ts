import stringWidth from "string-width";
import { RecentCache } from "./recent-cache.js";

const widths = new RecentCache<number>(4096);

/** Terminal cells a (possibly styled) string takes, by Ink's measure (`string-width`), kept for the strings of recent frames. */
export function cellWidth(text: string): number {
  return widths.get(text, stringWidth);
}
