import { describe, expect, it } from "vitest";
import InkOutput from "../../../node_modules/ink/build/output.js";
import Output from "../../../src/ui/tty/ink-draw/output.js";
import { RecentCache } from "../../../src/ui/tty/ink-draw/recent-cache.js";
import { measureText, sanitizeKept, widestLine, wrapText } from "../../../src/ui/tty/ink-draw/text-measure.js";
import inkSanitizeAnsi from "../../../node_modules/ink/build/sanitize-ansi.js";
import inkMeasureText from "../../../node_modules/ink/build/measure-text.js";
import inkWrapText from "../../../node_modules/ink/build/wrap-text.js";
import inkWidestLine from "widest-line";
import { rng } from "../../support/seeded-random.js";

// The bundle draws Ink's frames with conch's Output (scripts/ink-draw.mjs): it must give Ink's own
// string for every frame, whatever was written where, styled, wide, clipped or transformed, and
// again when the same rows come back in a later frame (from its cache).

const PIECES = [
  "a",
  "word",
  " ",
  "  ",
  "字",
  "😀",
  "e\u0301",
  "\u001b[1m",
  "\u001b[22m",
  "\u001b[31m",
  "\u001b[39m",
  "\u001b[2m",
  "\u001b[7m",
  "\u001b[38;5;208m",
  "\u001b[48;2;10;20;30m",
  "\u001b[0m",
  "\u001b]8;;file:///tmp/x\u001b\\",
  "\u001b]8;;\u001b\\",
  "─",
  "›",
];

type Transformer = (line: string, index: number) => string;
const TRANSFORMERS: Transformer[] = [(line) => `\u001b[36m${line}\u001b[39m`, (line, i) => (i % 2 ? line.toUpperCase() : line)];

function randomText(r: () => number, width: number): string {
  const lines = 1 + Math.floor(r() * 4);
  const out: string[] = [];
  for (let l = 0; l < lines; l++) {
    let line = "";
    const n = Math.floor(r() * width * 0.6);
    for (let i = 0; i < n; i++) line += PIECES[Math.floor(r() * PIECES.length)];
    out.push(line);
  }
  return out.join("\n");
}

type Op = ["write", number, number, string, Transformer[]] | ["clip", { x1?: number; x2?: number; y1?: number; y2?: number }] | ["unclip"];

function randomFrame(r: () => number, width: number, height: number): Op[] {
  const ops: Op[] = [];
  let open = 0;
  const n = 1 + Math.floor(r() * 8);
  for (let i = 0; i < n; i++) {
    const kind = r();
    if (kind < 0.15) {
      const clip = {
        x1: r() < 0.6 ? Math.floor(r() * width) : undefined,
        x2: r() < 0.6 ? Math.floor(r() * (width + 4)) : undefined,
        y1: r() < 0.6 ? Math.floor(r() * height) : undefined,
        y2: r() < 0.6 ? Math.floor(r() * (height + 2)) : undefined,
      };
      ops.push(["clip", clip]);
      open++;
    } else if (kind < 0.22 && open > 0) {
      ops.push(["unclip"]);
      open--;
    } else {
      const transformers = TRANSFORMERS.filter(() => r() < 0.2);
      ops.push(["write", Math.floor(r() * (width + 3)) - 1, Math.floor(r() * (height + 3)) - 2, randomText(r, width), transformers]);
    }
  }
  return ops;
}

function draw(OutputClass: typeof Output | typeof InkOutput, width: number, height: number, ops: Op[]): { output: string; height: number } {
  const out = new OutputClass({ width, height });
  for (const op of ops) {
    if (op[0] === "write") out.write(op[1], op[2], op[3], { transformers: op[4] });
    // Ink's own type says every side of a clip is there (undefined or not).
    else if (op[0] === "clip") out.clip({ x1: op[1].x1, x2: op[1].x2, y1: op[1].y1, y2: op[1].y2 });
    else out.unclip();
  }
  return out.get();
}

describe("conch's Output (the bundle's in place of Ink's)", () => {
  it("gives Ink's string for 1,500 seeded frames of styled, wide, clipped and transformed writes", () => {
    const r = rng(24);
    const frames: [number, number, Op[]][] = [];
    for (let i = 0; i < 1500; i++) {
      const width = 1 + Math.floor(r() * 40);
      const height = 1 + Math.floor(r() * 8);
      frames.push([width, height, randomFrame(r, width, height)]);
    }
    for (const [i, [width, height, ops]] of frames.entries())
      expect(draw(Output, width, height, ops), `frame ${i}`).toEqual(draw(InkOutput, width, height, ops));
    // Drawn again, the rows come from the cache: still Ink's.
    for (const [i, [width, height, ops]] of frames.entries())
      expect(draw(Output, width, height, ops), `again ${i}`).toEqual(draw(InkOutput, width, height, ops));
  });

  it("gives Ink's string for a live region that scrolls a row a frame (rows cached at other heights)", () => {
    const rows = Array.from(
      { length: 60 },
      (_, i) => `\u001b[2m${i}\u001b[22m ${"字w".repeat(i % 12)}${i % 7 === 0 ? "x".repeat(40) : ""}`,
    );
    for (let top = 0; top < 40; top++) {
      const ops: Op[] = [
        ["write", 0, 0, rows.slice(top, top + 20).join("\n"), []],
        ["write", 2, 21, `› ${"typed".repeat(top % 3)}`, [TRANSFORMERS[0]]],
      ];
      expect(draw(Output, 40, 22, ops)).toEqual(draw(InkOutput, 40, 22, ops));
    }
  });

  it("gives Ink's string for a flooding pane's coloured rows inside a border, the same codes frame after frame", () => {
    const r = rng(7);
    const CODES = [
      "\u001b[32m",
      "\u001b[33m",
      "\u001b[1;31m",
      "\u001b[36m",
      "\u001b[0m",
      "\u001b[m",
      "\u001b[39m",
      "\u001b[2m",
      "\u001b[22m",
      "\u001b[1m",
      "\u001b[7m",
      "\u001b[38;5;208m",
      "\u001b[48;2;10;20;30m",
      "\u001b[49m",
    ];
    const TEXT = ["INFO", " ", "compiling", "src/index.ts", "·", "─", "…", "x".repeat(30), "⠙"];
    const row = (): string => {
      let line = "";
      const n = Math.floor(r() * 12);
      for (let k = 0; k < n; k++) line += r() < 0.4 ? CODES[Math.floor(r() * CODES.length)] : TEXT[Math.floor(r() * TEXT.length)];
      return line;
    };
    for (let frame = 0; frame < 300; frame++) {
      const width = 10 + Math.floor(r() * 50);
      const height = 1 + Math.floor(r() * 10);
      const body = Array.from({ length: height }, row).join("\n");
      const border = Array.from({ length: height }, () => "\u001b[2m│\u001b[22m").join("\n");
      const ops: Op[] = [
        ["write", 0, 0, border, []],
        ["write", 2, 0, body, r() < 0.3 ? [TRANSFORMERS[0]] : []],
        ["write", width - 1, 0, border, []],
      ];
      expect(draw(Output, width, height, ops), `frame ${frame}`).toEqual(draw(InkOutput, width, height, ops));
    }
  });

  it("gives Ink's string for plain rows, a streaming answer's most (shorter, as wide as and wider than the frame, trailing blanks)", () => {
    const r = rng(11);
    const PLAIN = ["w000123 ", "a", " ", "  ", "~", "{[(;)]}", "x".repeat(12)];
    for (let i = 0; i < 400; i++) {
      const width = 1 + Math.floor(r() * 30);
      const lines = Array.from({ length: 1 + Math.floor(r() * 5) }, () => {
        let line = "";
        const n = Math.floor(r() * 8);
        for (let k = 0; k < n; k++) line += PLAIN[Math.floor(r() * PLAIN.length)];
        return line;
      });
      // Alone in its rows at the first cell, and among a styled write (both ways Ink draws a live region).
      const alone: Op[] = [["write", 0, 0, lines.join("\n"), []]];
      const among: Op[] = [...alone, ["write", 1, 1, "\u001b[2m›\u001b[22m", []]];
      for (const ops of [alone, among])
        expect(draw(Output, width, 6, ops), `${width} ${JSON.stringify(lines)}`).toEqual(draw(InkOutput, width, 6, ops));
    }
  });

  it("gives Ink's string for rows of narrow characters and SGR, a pane's (drawn without the grapheme segmenter)", () => {
    const r = rng(31);
    // Every SGR form a pane row or the transcript paints with, compound ones and resets included.
    const SGR = [
      "1",
      "2",
      "3",
      "4",
      "7",
      "22",
      "23",
      "24",
      "27",
      "0",
      "",
      "31",
      "39",
      "90",
      "49",
      "38;5;208",
      "48;5;17",
      "38;2;1;2;3",
      "48;2;200;100;0",
      "1;31",
      "2;90",
      "22;39",
      "0;1;4",
    ];
    const NARROW = ["x", "INFO", " ", "│", "─", "╭", "╯", "…", "⋮", "›", "•", "✓", "→", "≤", "▌", "{}", "0123"];
    for (let i = 0; i < 600; i++) {
      const width = 4 + Math.floor(r() * 40);
      const rows = Array.from({ length: 1 + Math.floor(r() * 6) }, () => {
        let row = "";
        const n = Math.floor(r() * 24);
        for (let k = 0; k < n; k++)
          row += r() < 0.4 ? `\u001b[${SGR[Math.floor(r() * SGR.length)]}m` : NARROW[Math.floor(r() * NARROW.length)];
        return row;
      });
      // At the first cell (a live region's rows), indented (a card's pane), and over another write.
      const text = rows.join("\n");
      const cases: Op[][] = [
        [["write", 0, 0, text, []]],
        [["write", 2, 1, text, []]],
        [
          ["write", 0, 0, "\u001b[2m›\u001b[22m", []],
          ["write", 1, 0, text, [TRANSFORMERS[0]]],
        ],
      ];
      for (const ops of cases)
        expect(draw(Output, width, 8, ops), `${width} ${JSON.stringify(rows)}`).toEqual(draw(InkOutput, width, 8, ops));
    }
  });

  it("measures and fits text as Ink does", () => {
    const r = rng(7);
    for (let i = 0; i < 500; i++) {
      const width = 1 + Math.floor(r() * 30);
      const text = randomText(r, 50);
      expect(widestLine(text)).toBe(inkWidestLine(text));
      expect(measureText(text)).toEqual(inkMeasureText(text));
      for (const wrap of ["wrap", "truncate", "truncate-end", "truncate-middle", "truncate-start", "end"] as const)
        expect(wrapText(text, width, wrap), `${wrap} ${width} ${JSON.stringify(text)}`).toBe(inkWrapText(text, width, wrap));
    }
  });
});

describe("sanitizeKept", () => {
  it("gives Ink's sanitized text, made once per text while it is used", () => {
    let calls = 0;
    const sanitize = sanitizeKept((text) => (calls++, inkSanitizeAnsi(text)));
    const texts = ["plain", "\u001b[31mred\u001b[39m", "\u001b[2Jcleared\u001b]0;title\u0007", "\u001b[?25lhidden"];
    for (let i = 0; i < 3; i++) for (const text of texts) expect(sanitize(text)).toBe(inkSanitizeAnsi(text));
    // The two with escapes other than SGR, once each; the narrow SGR ones need none.
    expect(calls).toBe(2);
  });

  it("gives Ink's sanitized text for lines of narrow characters and SGR without sanitizing them", () => {
    const r = rng(5);
    const PIECES = [
      "INFO",
      " ",
      "│",
      "·",
      "…",
      "⠙",
      "x",
      "\n",
      "\u001b[1;31m",
      "\u001b[m",
      "\u001b[0m",
      "\u001b[38;5;208m",
      "\u001b[48;2;1;2;3m",
      "\u001b[22;39m",
    ];
    const sanitize = sanitizeKept(() => {
      throw new Error("a narrow row was sanitized");
    });
    for (let i = 0; i < 500; i++) {
      let text = "";
      for (let k = Math.floor(r() * 20); k > 0; k--) text += PIECES[Math.floor(r() * PIECES.length)];
      expect(sanitize(text), JSON.stringify(text)).toBe(inkSanitizeAnsi(text));
    }
  });
});

describe("RecentCache", () => {
  it("keeps what is used and forgets the rest, within twice its limit", () => {
    const cache = new RecentCache<number>(10);
    let made = 0;
    const make = (k: string) => (made++, k.length);
    for (let i = 0; i < 1000; i++) {
      cache.get("kept", make);
      cache.get(`once ${i}`, make);
      expect(cache.size).toBeLessThanOrEqual(20);
    }
    // "kept" was made once: used every time, it never went out.
    expect(made).toBe(1001);
  });
});
