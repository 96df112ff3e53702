import { describe, expect, it } from "vitest";
import xterm from "@xterm/headless";
import inkLogUpdate from "../../../node_modules/ink/build/log-update.js";
import logUpdate, { rowDiff } from "../../../src/ui/tty/ink-draw/log-update.js";
import { rng } from "../../support/seeded-random.js";

// The bundle writes Ink's frames with conch's log-update (scripts/ink-draw.mjs), which writes only
// the rows that changed. Whatever the frames, the terminal must end up showing what Ink's own
// (erase everything, write everything) shows: every cell, its style, the scrollback, the cursor.

const COLS = 24;
const ROWS = 12;

/** A terminal as a PTY feeds it: a line feed also returns the carriage (the tty's ONLCR). */
function terminal() {
  const term = new xterm.Terminal({ cols: COLS, rows: ROWS, scrollback: 500, allowProposedApi: true, convertEol: true });
  let bytes = 0;
  const stream = {
    columns: COLS,
    rows: ROWS,
    isTTY: true,
    write(s: string) {
      bytes += s.length;
      term.write(s);
      return true;
    },
  };
  return { term, stream, bytes: () => bytes };
}

/** Every cell of the scrollback and the screen with its style, and the cursor. */
async function cells(term: InstanceType<typeof xterm.Terminal>): Promise<string[]> {
  await new Promise<void>((resolve) => term.write("", resolve));
  const buf = term.buffer.active;
  const out: string[] = [`cursor ${buf.cursorX},${buf.cursorY} base ${buf.baseY}`];
  for (let y = 0; y < buf.length; y++) {
    const line = buf.getLine(y)!;
    let row = "";
    for (let x = 0; x < COLS; x++) {
      const c = line.getCell(x)!;
      row += `${c.getChars() || "·"}${c.getWidth()}${c.getFgColorMode()}:${c.getFgColor()}/${c.getBgColorMode()}:${c.getBgColor()}${c.isBold() ? "b" : ""}${c.isDim() ? "d" : ""}${c.isInverse() ? "i" : ""}|`;
    }
    out.push(row);
  }
  return out;
}

/** Rows as Ink's Output gives them: styles closed at the end, trailing blanks trimmed; some fill the width. */
const ROW_POOL = [
  "",
  "short",
  "x".repeat(COLS),
  `${"y".repeat(COLS - 2)}字`,
  `\u001b[36m${"z".repeat(COLS)}\u001b[39m`,
  `\u001b[7m${"w".repeat(COLS - 1)}\u001b[27m`,
  "\u001b[1mbold\u001b[22m and plain",
  "字字字 wide",
  `${"q".repeat(COLS - 1)}`,
  "\u001b[2m⋮ 12 more lines above\u001b[22m",
  "› typed",
];

function randomFrame(r: () => number): string {
  const n = 1 + Math.floor(r() * (ROWS - 3));
  return `${Array.from({ length: n }, () => ROW_POOL[Math.floor(r() * ROW_POOL.length)]).join("\n")}\n`;
}

describe("conch's log-update (the bundle's in place of Ink's)", () => {
  it("leaves every cell, the scrollback and the cursor as Ink's does, over 40 seeded runs of 60 frames", async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const ink = terminal();
      const ours = terminal();
      const inkLog = inkLogUpdate.create(ink.stream as never);
      const ourLog = logUpdate.create(ours.stream as never);
      let last = "";
      for (let step = 0; step < 60; step++) {
        const kind = r();
        if (kind < 0.12 && last) {
          // What Ink does to print above its frame (writeToStdout): erase it, write, draw it again.
          const text = `printed ${seed}.${step} ${"p".repeat(Math.floor(r() * COLS * 2))}\n`;
          for (const [log, t] of [
            [inkLog, ink],
            [ourLog, ours],
          ] as const) {
            log.clear();
            t.stream.write(text);
            log(last);
          }
        } else {
          last = kind < 0.3 && last ? last : randomFrame(r);
          inkLog(last);
          ourLog(last);
        }
        expect(await cells(ours.term), `seed ${seed} step ${step}`).toEqual(await cells(ink.term));
      }
    }
  });

  it("writes only the changed rows, and no erase after a row that fills the width", () => {
    const full = "x".repeat(COLS);
    expect(rowDiff(`a\nb\nc\n`, `a\nB\nc\n`, COLS, ROWS)).toBe("\r\u001b[2AB\u001b[K\n\u001b[1B");
    expect(rowDiff(`a\nb\n`, `a\n${full}\n`, COLS, ROWS)).toBe(`\r\u001b[1A${full}\n`);
    // Fewer rows: the rest erased below the new last row.
    expect(rowDiff(`a\nb\nc\n`, `a\n`, COLS, ROWS)).toBe("\r\u001b[2A\u001b[J");
    // A frame as tall as the screen is written whole, as Ink writes it.
    expect(rowDiff(`a\n`, `${"a\n".repeat(ROWS)}`, COLS, ROWS)).toBeUndefined();
  });

  it("draws a cursor a component placed as Ink does", async () => {
    const ink = terminal();
    const ours = terminal();
    const inkLog = inkLogUpdate.create(ink.stream as never);
    const ourLog = logUpdate.create(ours.stream as never);
    const frames = ["a\nb\n", "a\nbc\n", "a\nbc\n", "xyz\n", "xyz\nw\n"];
    for (const [i, frame] of frames.entries()) {
      const position = i % 2 ? { x: i, y: 0 } : undefined;
      inkLog.setCursorPosition(position);
      ourLog.setCursorPosition(position);
      inkLog(frame);
      ourLog(frame);
      expect(await cells(ours.term), `frame ${i}`).toEqual(await cells(ink.term));
    }
  });
});
