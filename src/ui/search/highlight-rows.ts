import { colorLevel } from "../render/style.js";
import { caseSensitive, occurrences } from "./transcript-search.js";

// A CSI sequence (colours) or an OSC one (a link): they take no cells and are kept as they are.

const SEQUENCE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** How a match looks: the current one in reverse video, the others underlined (both survive NO_COLOR). */
const CURRENT = { open: "\u001b[7m", close: "\u001b[27m" };
const OTHER = { open: "\u001b[4m", close: "\u001b[24m" };

/** Rows with every occurrence of the query marked, and the row each occurrence is on. */
export interface HighlightedRows {
  rows: string[];
  /** Row of each occurrence, in order. */
  matchRows: number[];
}

/** One styled row split into what it shows (plain text) and, per shown character, where it starts in the row. */
function parse(row: string): { plain: string; at: number[] } {
  let plain = "";
  const at: number[] = [];
  let i = 0;
  for (const m of row.matchAll(SEQUENCE)) {
    for (; i < m.index; i++) {
      plain += row[i];
      at.push(i);
    }
    i = m.index + m[0].length;
  }
  for (; i < row.length; i++) {
    plain += row[i];
    at.push(i);
  }
  return { plain, at };
}

function mark(row: string, at: number[], start: number, end: number, look: { open: string; close: string }): string {
  const from = at[start];
  const to = end < at.length ? at[end] : row.length;
  // Sequences inside the match (a colour change) could end the mark: it is opened again after each.
  const inner = row.slice(from, to).replace(SEQUENCE, (s) => s + look.open);
  return row.slice(0, from) + look.open + inner + look.close + row.slice(to);
}

/**
 * Marks each occurrence of `query` in drawn rows (smart case, as the search itself), the one at
 * `current` (counting over all rows) differently. A match broken over two rows is not marked.
 */
export function highlightRows(rows: string[], query: string, current: number): HighlightedRows {
  const exact = caseSensitive(query);
  const styled = colorLevel() > 0;
  const matchRows: number[] = [];
  const out = rows.map((row, r) => {
    const { plain, at } = parse(row);
    const found = occurrences(plain, query, exact);
    let marked = row;
    // Right to left, so earlier positions stay valid as marks go in.
    for (let k = found.length - 1; k >= 0; k--) {
      const index = matchRows.length + k;
      if (styled) marked = mark(marked, at, found[k], found[k] + query.length, index === current ? CURRENT : OTHER);
    }
    for (let k = 0; k < found.length; k++) matchRows.push(r);
    return marked;
  });
  return { rows: out, matchRows };
}
