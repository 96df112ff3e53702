import { beforeAll, describe, expect, it } from "vitest";
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";
import { narrowWidth, wrapAscii } from "../../../src/ui/render/ascii-wrap.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { highlightCode, markdownRows } from "../../../src/ui/render/markdown-rows.js";
import { paint, type Style } from "../../../src/ui/render/style.js";
import { wrapRows } from "../../../src/ui/render/text.js";
import { atColorLevel } from "./plain-rows.js";
import { rng } from "../../support/seeded-random.js";

// The fast word wrap must be wrap-ansi's, character for character: the same rows, the same style
// codes closed and opened at each break. Checked on a seeded corpus of what a transcript holds
// (prose, styles, highlighted code, long words, runs of spaces) and on what it must leave to
// wrap-ansi (wide characters, emoji, links, other escapes).

beforeAll(() => loadRenderLibs());

const slow = (text: string, width: number) => wrapAnsi(text, width, { hard: true, trim: false, wordWrap: true }).split("\n");

/**
 * What wrapRows draws: wrap-ansi's rows, less the space a line broke at where it starts a row after
 * the line's first (the row before filled the width exactly; a row that was only that space goes).
 */
const drawn = (text: string, width: number) =>
  text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .flatMap((line) =>
      slow(line, width).flatMap((row, i) => {
        const m = /^((?:\u001b\[[0-9;]*m|\u001b\]8;[^\u0007\u001b]*(?:\u0007|\u001b\\))*) /.exec(row);
        if (i === 0 || !m) return [row];
        const rest = m[1] + row.slice(m[0].length);
        return rest.replace(/\u001b\[[0-9;]*m/g, "") === "" ? [] : [rest];
      }),
    );

const WORDS = [
  "the",
  "a",
  "parser",
  "config",
  "x",
  "supercalifragilisticexpialidocious",
  "src/ui/render/text.ts",
  "[12m",
  "--",
  "",
  "()",
  "ok.",
];
const STYLES: Style[] = [
  { bold: true },
  { dim: true },
  { italic: true },
  { underline: true },
  { strike: true },
  { inverse: true, bold: true },
  { role: "accent" },
  { role: "error", bold: true },
  { fg: "ansi256(208)" },
  { fg: "#102030", bg: "blue" },
  { dim: true, italic: true },
];
const RAW = [
  "\u001b[1m",
  "\u001b[22m",
  "\u001b[31m",
  "\u001b[39m",
  "\u001b[0m",
  "\u001b[m",
  "\u001b[38;5;75m",
  "\u001b[48;2;1;2;3m",
  "\u001b[4m",
];

/** A line of ASCII words, some styled, some raw escapes between them, spaces single or in runs. */
function asciiText(r: ReturnType<typeof rng>): string {
  const parts: string[] = [];
  const n = r.int(0, 30);
  for (let i = 0; i < n; i++) {
    let word = r.pick(WORDS);
    if (r() < 0.1) word = "y".repeat(r.int(1, 130));
    const roll = r();
    if (roll < 0.3) word = paint(word, r.pick(STYLES));
    else if (roll < 0.4) word = r.pick(RAW) + word;
    else if (roll < 0.45) word = word + r.pick(RAW);
    parts.push(word);
    parts.push(r() < 0.15 ? " ".repeat(r.int(2, 5)) : r() < 0.05 ? "\n" : " ");
  }
  let text = parts.join("");
  if (r() < 0.2) text = paint(text, r.pick(STYLES));
  if (r() < 0.1) text = ` ${text}  `;
  return text;
}

const WIDTHS = [1, 2, 3, 5, 8, 13, 20, 33, 40, 60, 80, 97, 100, 120, 200];

describe("wrapAscii is wrap-ansi's wrap, character for character", () => {
  it("on 2,000 seeded lines of styled ASCII at 15 widths", () =>
    atColorLevel(3, () => {
      const r = rng(24);
      for (let i = 0; i < 2000; i++) {
        const text = asciiText(r);
        const width = r.pick(WIDTHS);
        const fast = wrapAscii(text, width);
        expect(fast, JSON.stringify({ i, text, width })).toEqual(slow(text, width));
      }
    }));

  it("on highlighted code, rendered markdown and the colour levels conch draws at", () => {
    const code = `export function greet(name: string): string {\n  // a comment with "quotes" and 'more' that goes on and on past the edge of a narrow row\n  return \`Hello, \${name}!\`;\n}`;
    const md =
      "## A heading\n\nSome **bold** and *italic* text with `code` and a [link](https://example.com) in a long paragraph that wraps.\n\n- one item\n- **two**: more words here\n";
    for (const level of [0, 1, 2, 3] as const)
      atColorLevel(level, () => {
        const samples = [
          highlightCode(code, "ts", false),
          ...markdownRows(md, 200),
          paint("a style that runs\nover a line break", { italic: true }),
        ];
        for (const text of samples)
          for (const width of WIDTHS) {
            const fast = wrapAscii(text, width);
            if (fast) expect(fast, JSON.stringify({ level, text, width })).toEqual(slow(text, width));
            expect(wrapRows(text, width), JSON.stringify({ level, text, width })).toEqual(drawn(text, width));
          }
      });
  });

  it("leaves wide characters, emoji, combining marks, links, tabs and other escapes to wrap-ansi, and wrapRows still matches it", () =>
    atColorLevel(3, () => {
      const others = [
        `wide ${paint("漢字", { bold: true })} text that goes on`,
        "emoji 😀 and a family 👨‍👩‍👧 in a row of words",
        "e\u0301 combining, café",
        "\u001b]8;;https://example.com\u0007a link\u001b]8;;\u0007 and words after it",
        "a\ttab",
        "carriage\r\nreturn",
        "\u001b[2Kerase line then words",
        "\u001b[12345m too long a code",
        "a lone \u001b escape",
        "\u009b1m eight-bit CSI",
        "box ──── drawing",
      ];
      for (const text of others) {
        expect(wrapAscii(text, 10), text).toBeUndefined();
        for (const width of WIDTHS) expect(wrapRows(text, width), JSON.stringify({ text, width })).toEqual(drawn(text, width));
      }
    }));
});

describe("narrowWidth counts cells as string-width does", () => {
  it("for ASCII, box drawing and SGR; undefined for the rest", () =>
    atColorLevel(3, () => {
      const r = rng(7);
      for (let i = 0; i < 500; i++) {
        const text = asciiText(r).replace(/\n/g, " ") + (r() < 0.3 ? "─".repeat(r.int(1, 40)) : "");
        expect(narrowWidth(text), JSON.stringify(text)).toBe(stringWidth(text));
      }
      for (const text of ["漢字", "😀", "a\nb", "e\u0301", "\u001b]8;;x\u0007y\u001b]8;;\u0007", "›\u0301", "↔\ufe0f", "✅", "❌"])
        expect(narrowWidth(text), text).toBeUndefined();
    }));

  it("for every character of the punctuation, arrows, maths, shapes, braille and dingbats it takes, alone and among styled ASCII", () =>
    atColorLevel(3, () => {
      const taken: string[] = [];
      for (const c of [0xb7, ...Array.from({ length: 0x2900 - 0x2000 }, (_, i) => 0x2000 + i)]) {
        const ch = String.fromCharCode(c);
        const w = narrowWidth(ch);
        if (w === undefined) continue;
        expect(w, c.toString(16)).toBe(stringWidth(ch));
        taken.push(ch);
      }
      for (const ch of ["›", "•", "·", "…", "⋮", "─", "◦", "▪", "✓", "✗", "→", "⠋", "⠏"]) expect(taken, ch).toContain(ch);
      const r = rng(11);
      for (let i = 0; i < 300; i++) {
        const marks = Array.from({ length: r.int(1, 6) }, () => taken[r.int(0, taken.length - 1)]).join("");
        const text = paint(marks, { role: "user", bold: true }) + " " + asciiText(r).replace(/\n/g, " ");
        expect(narrowWidth(text), JSON.stringify(text)).toBe(stringWidth(text));
      }
    }));
});
