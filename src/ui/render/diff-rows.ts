import { diffLines, type DiffLine } from "../components/diff-view.js";
import { paint } from "./style.js";
import { cellWidth, truncateRow, wrapRows } from "./text.js";

/**
 * A unified diff with old and new line numbers, coloured, clipped at `maxLines` diff lines:
 * `path +N -M` (or "(new file)"), hunk headers, numbered rows that wrap under their gutter.
 */
export function diffRows(path: string, oldText: string | null | undefined, newText: string, width: number, maxLines?: number): string[] {
  const isNew = oldText === null || oldText === undefined;
  const lines = diffLines(oldText ?? "", newText);
  const added = lines.filter((l) => l.kind === "added").length;
  const removed = lines.filter((l) => l.kind === "removed").length;
  const max = maxLines ?? Infinity;
  const shown = lines.length > max ? lines.slice(0, Math.max(0, max)) : lines;
  const hidden = lines.length - shown.length;
  const numberWidth = String(Math.max(1, ...lines.map((l) => (l.kind === "hunk" ? 0 : Math.max(l.oldNo ?? 0, l.newNo ?? 0))))).length;
  const head = paint(path, { bold: true }) + (isNew ? paint(" (new file)", { role: "added" }) : "") + paint(` +${added}`, { role: "added" }) + paint(` -${removed}`, { role: "removed" });
  const rows = [truncateRow(head, width)];
  if (lines.length === 0) rows.push(paint("(no changes)", { dim: true }));
  for (const line of shown) rows.push(...diffRow(line, numberWidth, width));
  if (hidden > 0) rows.push(paint(`… ${hidden} more line${hidden === 1 ? "" : "s"}`, { dim: true }));
  return rows;
}

function diffRow(line: DiffLine, numberWidth: number, width: number): string[] {
  if (line.kind === "hunk") return [truncateRow(paint(line.text, { role: "hunk", dim: true }), width)];
  const num = (n: number | undefined) => (n === undefined ? "" : String(n)).padStart(numberWidth);
  const sign = line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " ";
  const r = line.kind === "added" ? "added" : line.kind === "removed" ? "removed" : undefined;
  const gutter = `${num(line.oldNo)} ${num(line.newNo)} ${sign} `;
  const body = wrapRows(line.text === "" ? " " : line.text, Math.max(1, width - cellWidth(gutter)));
  return body.map((row, i) => (i === 0 ? paint(gutter, { role: r, dim: !r }) : " ".repeat(cellWidth(gutter))) + paint(row, { role: r }));
}
