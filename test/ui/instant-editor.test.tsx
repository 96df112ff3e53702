import xterm from "@xterm/headless";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { InstantPrompt } from "../../src/ui/app/instant-prompt.js";
import { instantSession } from "../../src/ui/app/instant-session.js";
import { SPINNER_FRAMES } from "../../src/ui/render/theme.js";
import { FakeSession, tick } from "./fake-session.js";

// Ink's colours on, as in a terminal: the rows are compared cell by cell, styles included.
vi.hoisted(() => {
  process.env.FORCE_COLOR = "1";
});

afterEach(() => cleanup());

const COLS = 100;
const ROWS = 30;
const SPINNER = new RegExp(`[${SPINNER_FRAMES.join("")}]`, "g");

/** What a terminal shows of `bytes`, one string per row: each cell's character and its style. */
async function cells(bytes: string): Promise<string[]> {
  const term = new xterm.Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true, convertEol: true });
  await new Promise<void>((resolve) => term.write(bytes, resolve));
  const rows: string[] = [];
  const cell = term.buffer.active.getNullCell();
  for (let y = 0; y < ROWS; y++) {
    const line = term.buffer.active.getLine(y)!;
    let row = "";
    for (let x = 0; x < COLS; x++) {
      line.getCell(x, cell);
      const style = `${cell.getFgColor()}${cell.isBold() ? "b" : ""}${cell.isDim() ? "d" : ""}${cell.isInverse() ? "i" : ""}`;
      row += `${cell.getChars() || " "}${style ? `{${style}}` : ""}`;
    }
    rows.push(row.replace(/(?: )+$/, "").replace(SPINNER, "*"));
  }
  while (rows.length && !rows.at(-1)) rows.pop();
  return rows;
}

/** Renders the App and waits until its frames stop changing. */
async function settle(view: ReturnType<typeof render>): Promise<string> {
  let last: string | undefined;
  for (let i = 0; i < 50 && view.lastFrame() !== last; i++) {
    last = view.lastFrame();
    await tick(15);
  }
  return view.lastFrame() ?? "";
}

/** The keys typed into the App alone: its last frame, and what it sent. */
async function appAlone(reads: string[], opened = false) {
  const session = new FakeSession();
  if (opened) session.open();
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} bracketedPaste />);
  await settle(view);
  for (const read of reads) {
    view.stdin.write(read);
    await settle(view);
  }
  return { frame: await cells(await settle(view)), sent: sentTexts(session) };
}

/** What was sent, in order (the App passes no blocks for plain text). */
const sentTexts = (session: FakeSession) => session.calls.filter((c) => c.intent === "send").map((c) => c.args[0]);

/** The same keys typed while conch starts: the instant prompt takes what it can, the App (started from its editor) the rest. */
async function instantThenApp(reads: string[], opened = false) {
  const session = new FakeSession();
  if (opened) session.open();
  let drawn = "";
  const prompt = new InstantPrompt({ columns: COLS, rows: ROWS, write: (s) => (drawn += s) }, "fake", "/tmp/project");
  prompt.attach(instantSession(session, "fake", "/tmp/project"));
  const left = prompt.take(reads);
  const instant = await cells(drawn);
  const { editor } = prompt.handOff();
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} bracketedPaste editorAtStart={editor} />);
  const first = await cells(await settle(view));
  for (const read of left) {
    view.stdin.write(read);
    await settle(view);
  }
  return { instant, first, left, frame: await cells(await settle(view)), sent: sentTexts(session) };
}

/** Key sequences the instant prompt takes whole: each read as the terminal would deliver it (KeyReadSplitter's cuts). */
const TAKEN: Record<string, string[]> = {
  typing: ["h", "e", "l", "l", "o"],
  "arrows, Home/End, Ctrl-A/E/B/F": [
    "hello world",
    "\x1b[D",
    "\x1b[D",
    "X",
    "\x01",
    "Y",
    "\x05",
    "\x1b[H",
    "Z",
    "\x1b[F",
    "!",
    "\x02",
    "\x06",
  ],
  "Backspace, Delete, Ctrl-U/K/W": ["one two three", "\x7f", "\x17", "\x01", "\x1b[3~", "\x1b[C", "\x0b", "abc def", "\x15"],
  "Alt-arrows and Alt-B/F": ["alpha beta gamma", "\x1b[1;3D", "\x1bb", "x", "\x1b[1;3C", "\x1bf", "y", "\x1b[1;5D", "z"],
  "a paste with line breaks, Ctrl-J, a trailing backslash": ["\x1b[200~line one\rline two\x1b[201~", "\n", "a\\", "\r", "b", "\x1b[A"],
  "Enter sends; Up and Down walk history from a draft": ["first", "\r", "sec", "\r", "third", "\x1b[A", "\x1b[A", "\x1b[B", "\x04", "\x04"],
  "a blank Enter does nothing": ["  ", "\r", "x"],
};

/** Sequences with a key the App decides (a shell key, a menu, a line too long): it gets that key and the rest. */
const LEFT: Record<string, string[]> = {
  "Up on an empty input (the queue)": ["ab", "\r", "\x1b[A", "e"],
  "Ctrl-D on an empty input": ["\x04", "e"],
  "a slash command": ["/he", "lp"],
  "an @ mention, sent": ["see @src", "\r"],
  "a line wider than the input": ["x".repeat(120), "y"],
  "Esc and Tab": ["ab", "\x1b", "c", "\t"],
  "a paste that opens a menu is left whole": ["\x1b[200~/model\rx\x1b[201~", "b"],
};

describe("the instant prompt is the App's editor", () => {
  for (const [name, reads] of Object.entries(TAKEN)) {
    it(`takes ${name}: the same buffer and the same rows as the App, and nothing is left over`, async () => {
      const alone = await appAlone(reads);
      const early = await instantThenApp(reads);
      expect(early.left).toEqual([]);
      expect(early.instant).toEqual(alone.frame);
      expect(early.first).toEqual(alone.frame);
      expect(early.sent).toEqual(alone.sent);
    });
  }
  it("draws the App's idle chrome when the session opened before the App was up (its placeholder, mode and agent's name)", async () => {
    const reads = ["hi", "\r", "there"];
    const alone = await appAlone(reads, true);
    const early = await instantThenApp(reads, true);
    expect(early.left).toEqual([]);
    expect(early.instant).toEqual(alone.frame);
    expect(early.first).toEqual(alone.frame);
    expect(early.sent).toEqual(["hi"]);
  });
  for (const [name, reads] of Object.entries(LEFT)) {
    it(`leaves ${name} to the App, which ends where it would have alone`, async () => {
      const alone = await appAlone(reads);
      const early = await instantThenApp(reads);
      expect(early.left.length).toBeGreaterThan(0);
      expect(early.frame).toEqual(alone.frame);
      expect(early.sent).toEqual(alone.sent);
    });
  }
});
