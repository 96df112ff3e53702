import { beforeAll, describe, expect, it } from "vitest";
import wrapAnsi from "wrap-ansi";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { highlightCode } from "../../../src/ui/render/markdown-rows.js";
import { paint } from "../../../src/ui/render/style.js";
import { wrapRows } from "../../../src/ui/render/text.js";
import { atColorLevel } from "./plain-rows.js";

beforeAll(() => loadRenderLibs());

const slow = (text: string, width: number) => wrapAnsi(text, Math.max(1, width), { hard: true, trim: false, wordWrap: true }).split("\n");

const CODE = `export function greet(name: string): string {
  // a comment with "quotes" and 'more'
  const parts = [1, 2, 3].map((n) => n * 2);
  return \`Hello, \${name}! \${parts.join(", ")}\`;
}`;

describe("wrapRows: lines that fit are not re-measured, and come out as wrap-ansi makes them", () => {
  it("styled and highlighted lines, single and multi-line, at several widths", () =>
    atColorLevel(3, () => {
      const samples = [
        ...highlightCode(CODE, "ts", false).split("\n"),
        highlightCode(CODE, "ts", false),
        `plain ${paint("bold", { bold: true })} and ${paint("dim", { dim: true })} words`,
        `${paint("a style that runs\nover a line break", { italic: true })} then plain`,
        paint("coloured", { role: "accent" }) + " " + paint("inverse", { inverse: true, bold: true }),
        "\u001b[38;5;208morange\u001b[39m and \u001b[48;2;1;2;3mtrue colour\u001b[49m",
        "\u001b[1mbold never closed",
        "\u001b[1mbold never closed\nsecond line",
        `wide ${paint("漢字", { bold: true })} text`,
      ];
      for (const text of samples)
        for (const width of [4, 20, 40, 80, 200]) expect(wrapRows(text, width), JSON.stringify({ text, width })).toEqual(slow(text, width));
    }));
});
