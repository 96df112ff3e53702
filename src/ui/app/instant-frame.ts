import { safeLine } from "../../text/terminal-safe.js";
import type { EditorState } from "../editor/editor-state.js";
import { inputMaxLines, showLine, splitAtCursor, visibleLines } from "../editor/editor-view.js";
import { SPINNER_FRAMES, color, type ColorRole } from "../render/theme.js";
import { footer } from "../shell/key-bindings.js";
import { fitSegments, MODE_HINT } from "../status/bar-fit.js";
import type { BarSegment } from "../status/session-facts.js";

/** The status line as StatusLine draws it: spinner (or ✗), words, dim tail (elapsed, hints), dim detail lines, a failure's hints. */
export interface StatusRow {
  busy: boolean;
  tone: "normal" | "warning" | "error";
  text: string;
  /** What follows the words, dim: " · 3s · esc to cancel". */
  tail: string;
  detail: string[];
  /** A failure's way out, on a line of its own. */
  hints: string;
}

/** What the App's chrome shows while the session starts, as the instant prompt draws it. */
export interface ChromeView {
  editor: EditorState;
  /** The status line (StatusLine's view of the session); null when the App shows none (idle). */
  status: StatusRow | null;
  placeholder: string;
  /** Messages waiting, oldest first, and what for ("the session opens"). */
  queue: readonly string[];
  waitsFor: string;
  /** The status bar's facts, and whether its mode names Shift+Tab. */
  bar: BarSegment[];
  modeHint: boolean;
  columns: number;
  rows: number;
  /** The clock the App's spinners run on (ms). */
  now: number;
}

const FG: Record<string, number> = { red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36, gray: 90 };
const fg = (role: ColorRole, s: string) => {
  const name = color(role);
  return name ? `\x1b[${FG[name]}m${s}\x1b[39m` : s;
};
const dim = (s: string) => `\x1b[2m${s}\x1b[22m`;
const bold = (s: string) => `\x1b[1m${s}\x1b[22m`;
const inverse = (s: string) => `\x1b[7m${s}\x1b[27m`;
const cells = (s: string) => [...s].length;

/** Ink's `wrap="truncate-end"`: a piece too long for the line ends in `…`; the pieces are plain, then styled. */
function truncated(pieces: [string, (s: string) => string][], width: number): string {
  let room = width;
  const over = pieces.reduce((n, [text]) => n + cells(text), 0) > width;
  if (over) room = width - 1;
  let out = "";
  for (const [text, style] of pieces) {
    if (room <= 0) break;
    const part = [...text].slice(0, room).join("");
    room -= cells(part);
    if (part) out += style(part);
  }
  return over ? `${out}…` : out;
}
const plain = (s: string) => s;

/** The App's width for a terminal's columns (use-session-view), and its input's text column. */
const appWidth = (columns: number) => Math.max(20, columns);
const textWidth = (columns: number) => Math.max(4, appWidth(columns) - 2);

/** Characters one cell wide that no terminal draws otherwise: the instant prompt measures them as Ink does. */
const SIMPLE = /^[\x20-\x7e\t\u00a0-\u024f]*$/;

/** Whether the instant prompt draws this buffer exactly as the App's editor: one row per line, none hidden. */
export function editorFits(editor: EditorState, columns: number, rows: number): boolean {
  const lines = editor.text.split("\n");
  if (lines.length > inputMaxLines(rows)) return false;
  return lines.every((line) => SIMPLE.test(line) && cells(showLine(line)) + 1 <= textWidth(columns));
}

/** The queue as QueueView draws it when it does not have the keys. */
function queueRows(queue: readonly string[], waitsFor: string, width: number, rows: number): string[] {
  if (!queue.length) return [];
  const max = Math.max(1, Math.max(2, Math.floor(rows / 5)));
  const start = Math.max(0, Math.min(queue.length - 1 - max + 1, queue.length - max));
  const shown = queue.slice(start, start + max);
  const after = queue.length - start - shown.length;
  const room = Math.max(10, width - 6);
  const oneLine = (text: string) => {
    const lines = text.split("\n");
    const first = lines[0] + (lines.length > 1 ? ` (+${lines.length - 1} lines)` : "");
    return first.length > room ? `${first.slice(0, Math.max(0, room - 1))}…` : first;
  };
  return [
    ...(start > 0 ? [dim(`  … ${start} more before`)] : []),
    ...shown.map((text, j) =>
      truncated(
        [
          ["  ", plain],
          [`${start + j + 1}. `, dim],
          [safeLine(oneLine(text)), dim],
        ],
        width,
      ),
    ),
    ...(after > 0 ? [dim(`  … ${after} more after`)] : []),
    truncated([[`  queued: sent when ${waitsFor} · ${footer(["select-queued"])}`, dim]], width),
  ];
}

/** The input as InputEditor draws it with the keys: `›`, the text, the cursor in reverse video. */
function inputRows(view: ChromeView): string[] {
  const { editor } = view;
  const prompt = `${bold(fg("accent", "›"))} `;
  if (editor.text === "") return [`${prompt}${inverse(" ")}${dim(view.placeholder)}`];
  const lines = visibleLines(editor, inputMaxLines(view.rows));
  return lines.lines.map((line, i) => {
    const row = lines.start + i;
    const lead = row === 0 ? prompt : "  ";
    if (row !== lines.cursorRow) return `${lead}${showLine(line) || " "}`;
    const { before, at, after } = splitAtCursor(line, lines.column);
    return `${lead}${showLine(before)}${inverse(at ? showLine(at) : " ")}${showLine(after)}`;
  });
}

/** The status bar as StatusBar draws it. */
function barRow(view: ChromeView, width: number): string {
  const segments = fitSegments(view.bar, width, { mode: view.modeHint ? MODE_HINT.length : 0 });
  const pieces: [string, (s: string) => string][] = [];
  segments.forEach((s, i) => {
    if (i > 0) pieces.push([" · ", dim]);
    if (s.key === "agent") pieces.push([s.text, (t) => bold(fg("accent", t))]);
    else if (s.key === "tasks") pieces.push([s.text, (t) => fg("accent", t)]);
    else if (s.key === "mode") {
      pieces.push([s.text, (t) => fg("heading", t)]);
      if (view.modeHint) pieces.push([MODE_HINT, dim]);
    } else pieces.push([s.text, dim]);
  });
  return truncated(pieces, width);
}

/**
 * The rows of the App's chrome while the session starts (under its blank first line): the queue,
 * the status line, the input, the status bar. test/ui/instant-frame.test.tsx holds them equal,
 * cell by cell, to the App's own first frame.
 */
export function chromeRows(view: ChromeView): string[] {
  const width = appWidth(view.columns);
  const spinner = SPINNER_FRAMES[Math.floor(view.now / 100) % SPINNER_FRAMES.length];
  return [
    ...queueRows(view.queue, view.waitsFor, width, view.rows),
    ...statusRows(view.status, spinner, width),
    ...inputRows(view),
    barRow(view, width),
  ];
}

function statusRows(status: StatusRow | null, spinner: string, width: number): string[] {
  if (!status) return [];
  const tone: ColorRole = status.tone === "error" ? "error" : status.tone === "warning" ? "warning" : "accent";
  const words = (s: string) => (status.tone === "normal" ? s : fg(tone, s));
  return [
    truncated(
      [
        [status.busy ? `${spinner} ` : "✗ ", (s) => fg(tone, s)],
        [safeLine(status.text), words],
        [status.tail, dim],
      ],
      width,
    ),
    ...status.detail.map((line) => truncated([[`  ${safeLine(line)}`, dim]], width)),
    ...(status.hints ? [fg("warning", `  ${status.hints}`)] : []),
  ];
}
