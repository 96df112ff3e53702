import cliTruncate from "cli-truncate";
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";

/** Terminal cells a (possibly styled) string takes. */
export function cellWidth(text: string): number {
  return stringWidth(text);
}

/**
 * A (possibly styled) text as rows of at most `width` cells: words wrap, words longer than a row
 * are cut, the text's own line breaks are kept, and styles carry over the breaks.
 */
export function wrapRows(text: string, width: number): string[] {
  const w = Math.max(1, width);
  // Most text is short lines of ASCII, styled or not: they are their own rows (wrap-ansi measures
  // every word, which made drawing a long resumed transcript cost seconds).
  const lines = fittingLines(text, w);
  if (lines) return lines;
  // `trim: false` keeps a line's own indentation (code, nested lists); wrap-ansi then also keeps the
  // space it broke at, which starts the next row when the row before filled the width exactly.
  return text.split("\n").flatMap((line) =>
    wrapAnsi(line, w, { hard: true, trim: false, wordWrap: true })
      .split("\n")
      .flatMap((row, i) => (i === 0 ? [row] : withoutBreakSpace(row))),
  );
}

/** Styles and links that open a row before its first cell. */
const LEADING_ESCAPES = /^((?:\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\))*) /;

/** A row wrapped after its line's first, without the space the line broke at; none when that space was all of it. */
function withoutBreakSpace(row: string): string[] {
  const m = LEADING_ESCAPES.exec(row);
  if (!m) return [row];
  const rest = m[1] + row.slice(m[0].length);
  return rest.replace(SGR, "") === "" ? [] : [rest];
}

/** Printable ASCII and line breaks only: each character is one cell. */
const PLAIN_ASCII = /^[\x20-\x7e\n]*$/;
/** Colour and attribute sequences (SGR), which take no cells. */
const SGR = /\u001b\[([0-9;]*)m/g;

/**
 * The text's own lines when wrapping would change nothing: every line is ASCII that fits, and no
 * style runs over a line break (wrap-ansi would close and reopen it there). Else undefined.
 */
function fittingLines(text: string, width: number): string[] | undefined {
  if (PLAIN_ASCII.test(text)) {
    const lines = text.split("\n");
    return lines.every((line) => line.length <= width) ? lines : undefined;
  }
  if (!text.includes("\u001b")) return undefined;
  const lines = text.split("\n");
  for (const line of lines) {
    const visible = line.replace(SGR, "");
    if (visible.length > width || !PLAIN_ASCII.test(visible)) return undefined;
    if (lines.length > 1 && !stylesClosed(line)) return undefined;
  }
  return lines;
}

/** Whether every attribute and colour a line's SGR sequences turn on is off again at its end. */
function stylesClosed(line: string): boolean {
  const on = new Set<string>();
  for (const m of line.matchAll(SGR)) {
    const codes = m[1] === "" ? [0] : m[1].split(";").map(Number);
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i];
      if (c === 0) on.clear();
      else if (c === 38 || c === 48) {
        on.add(c === 38 ? "fg" : "bg");
        i += codes[i + 1] === 5 ? 2 : 4;
      } else if ((c >= 30 && c <= 37) || (c >= 90 && c <= 97)) on.add("fg");
      else if ((c >= 40 && c <= 47) || (c >= 100 && c <= 107)) on.add("bg");
      else if (c === 39) on.delete("fg");
      else if (c === 49) on.delete("bg");
      else if (c === 22) {
        on.delete("1");
        on.delete("2");
      } else if (c >= 23 && c <= 29) on.delete(String(c - 20));
      else on.add(String(c));
    }
  }
  return on.size === 0;
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
