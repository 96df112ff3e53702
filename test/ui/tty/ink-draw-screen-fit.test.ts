import { describe, expect, it } from "vitest";
import { fitScreen } from "../../../src/ui/tty/ink-draw/screen-fit.js";

const frameOf = (rows: string[]) => ({ output: rows.join("\n"), outputHeight: rows.length, staticOutput: "" });
const rows = (n: number) => Array.from({ length: n }, (_, i) => `row ${i + 1}`);

describe("a frame cut to fit the screen", () => {
  it("is left as it is while it is shorter than the terminal", () => {
    const frame = frameOf(rows(9));
    expect(fitScreen(frame, 10)).toBe(frame);
    expect(fitScreen(frame, undefined)).toBe(frame);
  });

  it("keeps its bottom rows, one fewer than the terminal has, when it would reach the last row", () => {
    for (const height of [10, 25]) {
      const fitted = fitScreen(frameOf(rows(height)), 10);
      expect(fitted.outputHeight).toBe(9);
      expect(fitted.output.split("\n")).toEqual(rows(height).slice(height - 9));
      expect(fitted.staticOutput).toBe("");
    }
  });

  it("keeps one row on a terminal of one row", () => {
    expect(fitScreen(frameOf(rows(3)), 1)).toMatchObject({ output: "row 3", outputHeight: 1 });
  });
});
