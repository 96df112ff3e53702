import { stripVTControlCharacters } from "node:util";
import { setColorLevel, type ColorLevel } from "../../../src/ui/render/style.js";

/** Rows as a user reads them: styles stripped, trailing blanks dropped (as Ink's frames drop them), one row a line. */
export function plainRows(rows: string[]): string {
  return rows.map((row) => stripVTControlCharacters(row).replace(/\s+$/, "")).join("\n");
}

/** Runs `draw` with the row renderers at colour level `level`, then puts the previous level back. */
export function atColorLevel<T>(level: ColorLevel, draw: () => T): T {
  const previous = setColorLevel(level);
  try {
    return draw();
  } finally {
    setColorLevel(previous);
  }
}

/** The SGR sequence that opens `codes` (e.g. "31" for red, "1;31" for bold red). */
export const sgr = (codes: string): string => `\u001b[${codes}m`;
