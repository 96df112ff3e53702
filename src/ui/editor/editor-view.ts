import { safeText } from "../../text/terminal-safe.js";
import { cursorLine, type EditorState } from "./editor-state.js";

/** The lines of the buffer to draw, the cursor's line among them, and how many are hidden above and below. */
export function visibleLines(editor: Pick<EditorState, "text" | "cursor">, maxLines: number) {
  const lines = editor.text.split("\n");
  const { line: cursorRow, column } = cursorLine(editor);
  const max = Math.max(1, maxLines);
  let start = 0;
  if (lines.length > max) start = Math.min(Math.max(0, cursorRow - Math.floor(max / 2)), lines.length - max);
  return {
    lines: lines.slice(start, start + max),
    start,
    cursorRow,
    column,
    hiddenAbove: start,
    hiddenBelow: Math.max(0, lines.length - start - max),
  };
}

/**
 * A line as shown: a pasted escape sequence or control character is shown as a mark, never run by
 * the terminal; tabs would break the cursor's column, and two spaces look the same to a reader.
 */
export const showLine = (s: string) => safeText(s).replace(/\t/g, "  ");

/** The line cut at the cursor: before it, the character under it (empty at the end), after it. */
export function splitAtCursor(line: string, column: number): { before: string; at: string; after: string } {
  const at = line.length > column ? String.fromCodePoint(line.codePointAt(column)!) : "";
  return { before: line.slice(0, column), at, after: line.slice(column + at.length) };
}

/** Lines the input shows at most, for a terminal of `rows` rows. */
export const inputMaxLines = (rows: number) => Math.max(3, Math.floor(rows / 3));
