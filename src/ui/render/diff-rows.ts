import { renderLibs } from "./render-libs.js";
import { paint } from "./style.js";
import { cellWidth, truncateRow, wrapRows } from "./text.js";

/** One line of the unified diff as shown: a hunk header or a line with its old/new numbers. */
export type DiffLine =
  { kind: "hunk"; text: string } | { kind: "context" | "added" | "removed"; text: string; oldNo?: number; newNo?: number };

/** How a diff is drawn besides its texts. */
export interface DiffOptions {
  /** Diff lines shown before "… N more lines". */
  maxLines?: number;
  /** Unchanged lines around each change (3 unless said). */
  context?: number;
  /** Leave out the `@@` hunk headers (the gutter numbers say where each line is). */
  noHunkHeaders?: boolean;
  /** The texts are only the lines that change, not the file: no line numbers, which would be made up. */
  excerpt?: boolean;
}

/**
 * A unified diff with old and new line numbers, coloured, clipped at `maxLines` diff lines:
 * `path +N -M` (or "(new file)"), hunk headers, numbered rows that wrap under their gutter.
 */
export function diffRows(
  path: string,
  oldText: string | null | undefined,
  newText: string,
  width: number,
  maxLines?: number,
  opts: Omit<DiffOptions, "maxLines"> = {},
): string[] {
  const isNew = oldText === null || oldText === undefined;
  const all = diffLines(oldText ?? "", newText, opts.context ?? 3);
  const lines = opts.noHunkHeaders || opts.excerpt ? all.filter((l) => l.kind !== "hunk") : all;
  const added = lines.filter((l) => l.kind === "added").length;
  const removed = lines.filter((l) => l.kind === "removed").length;
  const max = maxLines ?? Infinity;
  const shown = lines.length > max ? lines.slice(0, Math.max(0, max)) : lines;
  const hidden = lines.length - shown.length;
  const numberWidth = opts.excerpt
    ? 0
    : String(Math.max(1, ...lines.map((l) => (l.kind === "hunk" ? 0 : Math.max(l.oldNo ?? 0, l.newNo ?? 0))))).length;
  const head =
    paint(path, { bold: true }) +
    (isNew ? paint(" (new file)", { role: "added" }) : "") +
    paint(` +${added}`, { role: "added" }) +
    paint(` -${removed}`, { role: "removed" }) +
    (opts.excerpt && !isNew ? paint(" · line not given", { dim: true }) : "");
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
  const gutter = numberWidth === 0 ? `${sign} ` : `${num(line.oldNo)} ${num(line.newNo)} ${sign} `;
  const body = wrapRows(line.text === "" ? " " : line.text, Math.max(1, width - cellWidth(gutter)));
  return body.map((row, i) => (i === 0 ? paint(gutter, { role: r, dim: !r }) : " ".repeat(cellWidth(gutter))) + paint(row, { role: r }));
}

/** The unified diff of two texts as numbered lines (`context` unchanged lines around each change). */
export function diffLines(oldText: string, newText: string, context = 3): DiffLine[] {
  const patch = renderLibs().structuredPatch("a", "b", oldText, newText, "", "", { context });
  const out: DiffLine[] = [];
  for (const hunk of patch.hunks) {
    out.push({ kind: "hunk", text: `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@` });
    let oldNo = hunk.oldStart;
    let newNo = hunk.newStart;
    for (const raw of hunk.lines) {
      const mark = raw[0];
      const text = raw.slice(1).replace(/\t/g, "    ").replace(/\r$/, "");
      if (mark === "+") out.push({ kind: "added", text, newNo: newNo++ });
      else if (mark === "-") out.push({ kind: "removed", text, oldNo: oldNo++ });
      else if (mark === " ") out.push({ kind: "context", text, oldNo: oldNo++, newNo: newNo++ });
      // "\ No newline at end of file" is noise in a terminal view.
    }
  }
  return out;
}

/** GNU numbering for the header: an empty range names the line before it ("-0,0" for a new file). */
function range(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start},${count}`;
}
