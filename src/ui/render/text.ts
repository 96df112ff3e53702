import cliTruncate from "cli-truncate";
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";
import { isAsciiSgr, narrowWidth, wrapAscii } from "./ascii-wrap.js";

/** Terminal cells a (possibly styled) string takes. */
export function cellWidth(text: string): number {
  return narrowWidth(text) ?? stringWidth(text);
}

/**
 * A (possibly styled) text as rows of at most `width` cells: words wrap, words longer than a row
 * are cut, the text's own line breaks are kept, and styles carry over the breaks.
 */
export function wrapRows(text: string, width: number): string[] {
  const w = Math.max(1, width);
  // One line that fits (most rows of a transcript): the row itself, as the wrap below would give it.
  if (text.length <= w && !text.includes("\n") && !text.includes("\r") && isAsciiSgr(text)) return [text];
  // Most text is ASCII, styled or not: wrapped the same way without measuring every word's
  // graphemes (which made drawing a long resumed transcript cost seconds). `trim: false` keeps a
  // line's own indentation (code, nested lists); it also keeps the space a line broke at, which
  // starts the next row when the row before filled the width exactly: that space is dropped.
  // wrap-ansi reads CRLF as one break; each line is wrapped alone, as wrap-ansi does.
  const rows: string[] = [];
  for (const line of (text.includes("\r") ? text.replace(/\r\n/g, "\n") : text).split("\n")) {
    const wrapped = wrapAscii(line, w) ?? wrapAnsi(line, w, { hard: true, trim: false, wordWrap: true }).split("\n");
    rows.push(wrapped[0]);
    for (let i = 1; i < wrapped.length; i++) {
      const row = withoutBreakSpace(wrapped[i]);
      if (row !== undefined) rows.push(row);
    }
  }
  return rows;
}

/** Styles and links that open a row before its first cell. */
const LEADING_ESCAPES = /^((?:\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\))*) /;
/** Colour and attribute sequences (SGR), which take no cells. */
const SGR = /\u001b\[([0-9;]*)m/g;

/** A row wrapped after its line's first, without the space the line broke at; undefined when that space was all of it. */
function withoutBreakSpace(row: string): string | undefined {
  const m = LEADING_ESCAPES.exec(row);
  if (!m) return row;
  const rest = m[1] + row.slice(m[0].length);
  return rest.replace(SGR, "") === "" ? undefined : rest;
}

/** One row cut to `width` cells, ending with "…" when something was cut. */
export function truncateRow(text: string, width: number): string {
  if (width <= 0) return "";
  if (cellWidth(text) <= width) return text;
  const cut = cliTruncate(text, width, { position: "end" });
  // A link cut in the middle must still end, or the rest of the screen would be part of it.
  const opened = (cut.match(/\u001b\]8;[^;]*;[^\u0007\u001b]+(?:\u0007|\u001b\\)/g) ?? []).length;
  const closed = (cut.match(/\u001b\]8;[^;]*;(?:\u0007|\u001b\\)/g) ?? []).length;
  return opened > closed ? `${cut}\u001b]8;;\u001b\\` : cut;
}

/**
 * Rows with a hanging indent: the first row starts with `first`, the others with `rest` (usually
 * blanks of the same width), the text wrapped to what is left of `width`.
 */
export function hang(first: string, rest: string, text: string, width: number): string[] {
  const inner = Math.max(1, width - Math.max(cellWidth(first), cellWidth(rest)));
  return wrapRows(text, inner).map((row, i) => (i === 0 ? first : rest) + row);
}

/** Every row prefixed (an indent, a quote bar). */
export function prefixRows(rows: string[], prefix: string): string[] {
  return rows.map((r) => prefix + r);
}
