import type { Tokens } from "marked";
import { inlineAnsi, inlinePlainText } from "./markdown-inline.js";
import { paint } from "./style.js";
import { cellWidth, wrapRows } from "./text.js";

const SEPARATOR = " │ ";
const MIN_COLUMN = 3;

/** A GFM table whose columns share `width`; cells that do not fit wrap inside their column. */
export function tableRows(token: Tokens.Table, width: number): string[] {
  const natural = token.header.map((cell, col) =>
    Math.max(
      MIN_COLUMN,
      cellWidth(inlinePlainText(cell.tokens)),
      ...token.rows.map((row) => (row[col] ? longestLine(inlinePlainText(row[col].tokens)) : 0)),
    ),
  );
  const widths = fitColumns(natural, width - SEPARATOR.length * Math.max(0, natural.length - 1));
  const sep = paint(SEPARATOR, { role: "border", dim: true });
  const row = (cells: Tokens.TableCell[], header: boolean): string[] => {
    const columns = widths.map((w, col) => {
      const cell = cells[col];
      const text = cell ? inlineAnsi(cell.tokens) : "";
      return { rows: wrapRows(header ? paint(text, { bold: true }) : text, w), w, align: cell?.align };
    });
    const height = Math.max(1, ...columns.map((c) => c.rows.length));
    const out: string[] = [];
    for (let r = 0; r < height; r++) {
      out.push(
        columns
          .map((c) => alignCell(c.rows[r] ?? "", c.w, c.align))
          .join(sep)
          .replace(/\s+$/, ""),
      );
    }
    return out;
  };
  const rule = paint(widths.map((w) => "─".repeat(w)).join("─┼─"), { role: "border", dim: true });
  return [...row(token.header, true), rule, ...token.rows.flatMap((r) => row(r, false))];
}

function alignCell(text: string, width: number, align: string | null | undefined): string {
  const room = Math.max(0, width - cellWidth(text));
  if (align === "right") return " ".repeat(room) + text;
  if (align === "center") return " ".repeat(Math.floor(room / 2)) + text + " ".repeat(room - Math.floor(room / 2));
  return text + " ".repeat(room);
}

function longestLine(text: string): number {
  return Math.max(0, ...text.split("\n").map(cellWidth));
}

/**
 * Column widths within `available` cells: columns that fit their content keep it, the rest share
 * what is left evenly, never below a readable minimum.
 */
export function fitColumns(natural: number[], available: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available || natural.length === 0) return natural;
  const widths = natural.slice();
  let open = natural.map((_, i) => i);
  let budget = Math.max(available, MIN_COLUMN * natural.length);
  // Columns narrower than an even share are settled first; their slack goes to the wide ones.
  for (;;) {
    const share = Math.floor(budget / open.length);
    const fitting = open.filter((i) => natural[i] <= share);
    if (fitting.length === 0) {
      let extra = budget - share * open.length;
      for (const i of open) {
        widths[i] = Math.max(MIN_COLUMN, share + (extra > 0 ? 1 : 0));
        extra -= 1;
      }
      return widths;
    }
    for (const i of fitting) budget -= natural[i];
    open = open.filter((i) => natural[i] > share);
    if (open.length === 0) return widths;
  }
}
