import type { FileText, UndoPlan } from "../../session/undo-plan.js";
import { safeLine, safeText } from "../../text/terminal-safe.js";
import { diffRows } from "./diff-rows.js";
import { paint } from "./style.js";
import { hang, truncateRow } from "./text.js";

/** Diff lines shown per file before "… N more lines". */
const DIFF_LINES = 12;

const textOf = (t: FileText | undefined) => (t && "text" in t ? safeText(t.text) : undefined);

/**
 * What `/undo` will do, as rows: per file, the diff from what the agent wrote (now on disk) to what
 * is put back, or the file to delete; then the files left as they are and why, and what the turn
 * did that conch did not see.
 */
export function undoRows(plan: UndoPlan, width: number): string[] {
  const rows = [
    truncateRow(
      paint(plan.redo ? "Redo " : "Undo ", { role: "warning", bold: true }) +
        paint(`turn ${plan.turnId} · ${safeLine(plan.label)}`, { bold: true }),
      width,
    ),
  ];
  for (const f of plan.files) {
    rows.push("");
    const shown = safeLine(f.shown);
    const now = textOf(f.now);
    if (f.action === "delete") {
      rows.push(
        truncateRow(paint(`delete ${shown}`, { role: "removed", bold: true }) + paint(" (the turn created it)", { dim: true }), width),
      );
      if (now !== undefined) rows.push(...diffRows(shown, now, "", width, DIFF_LINES).slice(1));
      continue;
    }
    const restored = textOf(f.restored);
    if (now === undefined || restored === undefined) {
      rows.push(
        truncateRow(
          paint(shown, { bold: true }) +
            paint(` binary content: ${bytesOf(f.restored)} bytes put back over ${bytesOf(f.now)}`, { dim: true }),
          width,
        ),
      );
      continue;
    }
    rows.push(...diffRows(shown, now, restored, width, DIFF_LINES));
  }
  if (plan.files.length === 0) rows.push("", paint("nothing to put back", { dim: true }));
  for (const s of plan.skipped) {
    rows.push(...hang(paint("left ", { role: "warning" }), "  ", `${safeLine(s.shown)}: ${safeLine(s.reason)}`, width));
  }
  for (const line of plan.unseen)
    rows.push(...hang(paint("! ", { role: "warning", bold: true }), "  ", paint(safeLine(line), { dim: true }), width));
  return rows;
}

function bytesOf(t: FileText | undefined): number {
  if (!t) return 0;
  return "binary" in t ? t.binary : Buffer.byteLength(t.text);
}
