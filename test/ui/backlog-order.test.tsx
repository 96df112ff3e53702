import { PassThrough, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { render } from "ink";
import xterm from "@xterm/headless";
import { App } from "../../src/ui/app/app.js";
import { loadRenderLibs } from "../../src/ui/render/render-libs.js";
import { landmarksOf, TranscriptReader, wholeOnScreen } from "../../bench/lib/transcript-reader.mjs";
import { BACKLOG_PIECE } from "../../src/ui/hooks/use-transcript.js";
import { FakeSession } from "./fake-session.js";

// A resumed session's long backlog goes to the scrollback in slices, some written between the App's
// renders: every row must arrive once and in transcript order, as a terminal shows it, also when
// keys typed meanwhile make the App render; and it goes out in pieces, so a key's echo never waits
// behind a large write.

const MARKER = "ENDOFBACKLOG5521";
const TURNS = 300;
const COLS = 100;
const ROWS = 30;

const term = new xterm.Terminal({ cols: COLS, rows: ROWS, scrollback: 100_000, allowProposedApi: true, convertEol: true });
afterAll(() => term.dispose());
beforeAll(() => loadRenderLibs());

/** The terminal has parsed everything written to it so far. */
let parsed: Promise<void> = Promise.resolve();

/** Everything in the terminal, scrollback first, once what was written so far is parsed. */
async function screen(): Promise<string[]> {
  await parsed;
  const buf = term.buffer.active;
  return Array.from({ length: buf.length }, (_, y) => buf.getLine(y)?.translateToString(true) ?? "");
}

describe("a long backlog in the scrollback", () => {
  it("every prompt and answer once, in order, and the end once, in pieces, with keys typed meanwhile", async () => {
    const session = new FakeSession().open();
    const turns = Array.from({ length: TURNS }, (_, i) => ({
      prompt: `what about the parser now (turn ${i + 1})`,
      heading: `Parser, step ${i + 1}`,
    }));
    turns.forEach((t, i) => {
      const turnId = session.prompt(t.prompt);
      const end = i === TURNS - 1 ? `\n${MARKER}\n` : "";
      session.chunk(
        `## ${t.heading}\n\nIt reads **one token** too far; see \`lexer.ts\`.\n\n\`\`\`ts\nconst next = tokens[${i}];\nif (!next) return fail("eof");\n\`\`\`\n${end}`,
      );
      session.respond(turnId);
      session.emit({ type: "settled" });
    });
    const writes: number[] = [];
    const stdout = new Writable({
      write(chunk, _enc, cb) {
        writes.push(chunk.toString().length);
        parsed = new Promise((resolve) => term.write(chunk.toString(), resolve));
        cb();
      },
    });
    Object.assign(stdout, { columns: COLS, rows: ROWS, isTTY: true });
    const stdin = new PassThrough();
    Object.assign(stdin, { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
    const ink = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: false,
    });
    try {
      const marks = { landmarks: landmarksOf(turns), marker: MARKER };
      const reader = new TranscriptReader(marks);
      const whole = wholeOnScreen(reader);
      const viewport = async () => {
        await parsed;
        const buf = term.buffer.active;
        return Array.from({ length: ROWS }, (_, y) => buf.getLine(buf.viewportY + y)?.translateToString(true) ?? "");
      };
      const typed = "keys typed while the backlog is written";
      let keys = 0;
      const deadline = Date.now() + 60_000;
      while (!whole(await viewport(), { term })) {
        if (keys < typed.length) stdin.write(typed[keys++]);
        if (Date.now() > deadline)
          throw new Error(`the backlog never arrived whole; screen ends:\n${(await screen()).slice(-40).join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const text = (await screen()).join("\n");
      for (let i = 1; i <= TURNS; i++) expect(text.split(`(turn ${i})`).length - 1, `turn ${i}`).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await viewport()).join("\n")).toContain(`› ${typed.slice(0, keys).trimEnd()}`);
      // Only the write that ends the backlog (the last slice's rows, in the commit that takes the
      // preview away) may hold more than a piece.
      expect(writes.filter((n) => n > BACKLOG_PIECE).length, `write sizes: ${writes.join(" ")}`).toBeLessThanOrEqual(1);
    } finally {
      ink.unmount();
    }
  }, 90_000);
});
