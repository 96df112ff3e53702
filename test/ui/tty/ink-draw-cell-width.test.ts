import { describe, expect, it } from "vitest";
import stringWidth from "string-width";
import { DisplayTerminal } from "../../../src/terminals/display-terminal.js";
import { narrowWidth } from "../../../src/ui/render/ascii-wrap.js";
import { paneRows } from "../../../src/ui/render/pane-rows.js";
import { cellWidth } from "../../../src/ui/tty/ink-draw/cell-width.js";
import { rng } from "../../support/seeded-random.js";
import { atColorLevel } from "../render/plain-rows.js";

const LEVELS = ["\u001b[32m INFO\u001b[0m", "\u001b[33m WARN\u001b[0m", "\u001b[1;31mERROR\u001b[0m", "\u001b[36mDEBUG\u001b[0m"];
const STYLES = ["\u001b[2m", "\u001b[1m", "\u001b[7m", "\u001b[38;5;208m", "\u001b[48;2;10;200;30m", "\u001b[4;35m", "\u001b[0m"];
const WIDE = ["漢字", "😀", "e\u0301", "✅", "한글", "ｆｕｌｌ"];

/** Output such as a build or a test runner prints, styled; now and then a wide character or an emoji. */
function floodLines(seed: number, count: number): string {
  const r = rng(seed);
  let out = "";
  for (let n = 0; n < count; n++) {
    const words = Array.from({ length: r.int(2, 14) }, () => r.pick(["compiling", "src/index.ts", "ok", "│", "─", "→", "…", "42ms"]));
    const style = r.pick(STYLES);
    const wide = r() < 0.1 ? ` ${r.pick(WIDE)}` : "";
    out += `${String(n).padStart(7, "0")} ${r.pick(LEVELS)} ${style}${words.join(" ")}\u001b[0m${wide}\r\n`;
  }
  return out;
}

describe("Ink's cell width for the rows a pane draws", () => {
  it("is string-width's for every row of a flooding pane, framed and styled, narrow or wide", async () => {
    const term = new DisplayTerminal("flood", { cols: 78, rows: 12 });
    for (const seed of [1, 2, 3]) {
      term.write(floodLines(seed, 200));
      await term.flush();
      for (const focused of [false, true]) {
        const rows = atColorLevel(3, () => paneRows(term, { rows: 12, width: 80, title: "npm test", focused }));
        expect(rows.length).toBeGreaterThan(10);
        // Most take the short way (narrow characters and SGR); the others are measured by string-width.
        expect(rows.filter((row) => narrowWidth(row) !== undefined).length).toBeGreaterThan(rows.length / 2);
        for (const row of rows) expect(cellWidth(row), JSON.stringify(row)).toBe(stringWidth(row));
      }
    }
  });
});
