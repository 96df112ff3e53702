import { homedir } from "node:os";
import type { BarSegment } from "./session-facts.js";

/** One way to make the bar shorter: shorten a segment, or drop it. */
type Step = { shorten: BarSegment["key"] } | { drop: BarSegment["key"] };

/**
 * What gives way first when the bar is too narrow. The cwd is only shortened, then dropped, once the
 * cheaper facts are gone: the model says what answers, so it outlasts the cwd (the shell prompt above
 * conch already names the folder).
 */
const STEPS: Step[] = [
  { shorten: "cwd" },
  { drop: "cost" },
  { drop: "title" },
  { drop: "context" },
  { drop: "cwd" },
  { drop: "model" },
  { drop: "tasks" },
  { drop: "mode" },
];

const SEPARATOR = 3;

/** What the mode segment says after its name when Shift+Tab cycles modes. */
export const MODE_HINT = " (shift+tab)";

/** A path cut to its last part, `…/project`; a path of one part stays as it is. */
export function shortenPath(path: string): string {
  const parts = path.split("/").filter(Boolean);
  if (parts.length < 2) return path;
  return `…/${parts[parts.length - 1]}`;
}

/**
 * The segments that fit `width`, shortening or dropping the less important ones first.
 * `extra` is what a segment draws besides its text (the mode's key hint).
 */
export function fitSegments(segments: BarSegment[], width: number, extra: Partial<Record<BarSegment["key"], number>> = {}): BarSegment[] {
  let out = [...segments];
  const length = () => out.reduce((n, s) => n + s.text.length + (extra[s.key] ?? 0), 0) + (out.length - 1) * SEPARATOR;
  for (const step of STEPS) {
    if (length() <= width) break;
    if ("shorten" in step) out = out.map((s) => (s.key === step.shorten ? { ...s, text: shortenPath(s.text) } : s));
    else out = out.filter((s) => s.key !== step.drop);
  }
  return out;
}

/** The cwd with the home folder written as `~`. */
export function shortPath(p: string, home = homedir()): string {
  if (home && (p === home || p.startsWith(`${home}/`))) return `~${p.slice(home.length)}`;
  return p;
}
