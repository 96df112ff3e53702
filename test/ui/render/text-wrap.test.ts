import { beforeAll, describe, expect, it } from "vitest";
import wrapAnsi from "wrap-ansi";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { highlightCode } from "../../../src/ui/render/markdown-rows.js";
import { paint } from "../../../src/ui/render/style.js";
import { wrapRows } from "../../../src/ui/render/text.js";
import { atColorLevel } from "./plain-rows.js";

beforeAll(() => loadRenderLibs());

/** wrap-ansi's rows, less the space a line broke at when it starts a row (see wrapRows). */
const slow = (text: string, width: number) =>
  text.split("\n").flatMap((line) =>
    wrapAnsi(line, Math.max(1, width), { hard: true, trim: false, wordWrap: true })
      .split("\n")
      .flatMap((row, i) => {
        if (i === 0) return [row];
        const cut = row.replace(/^((?:\u001b\[[0-9;]*m)*) /, "$1");
        return cut.replace(/\u001b\[[0-9;]*m/g, "") === "" && cut !== row ? [] : [cut];
      }),
  );

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

describe("wrapRows at a row that fills the width exactly", () => {
  it("the next row starts with the next word, not with the space between them", () => {
    const text = "The command is waiting for you: focus the terminal pane and type your name, then Enter.";
    expect(wrapRows(text, 80)).toEqual(["The command is waiting for you: focus the terminal pane and type your name, then", "Enter."]);
    expect(wrapRows("aaaa bbbb", 4)).toEqual(["aaaa", "bbbb"]);
    expect(wrapRows(paint("aaaa bbbb", { bold: true }), 4).map((r) => r.replace(/\u001b\[[0-9;]*m/g, ""))).toEqual(["aaaa", "bbbb"]);
  });

  it("keeps a line's own indentation", () => {
    expect(wrapRows("    indented code that is long", 12)[0]).toBe("    indented");
  });
});
