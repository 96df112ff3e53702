import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ClientTerminal, type ClientTerminalOptions } from "../../src/terminals/client-terminal.js";
import { ScreenMirror } from "../../src/terminals/screen-mirror.js";
import { ScreenThread } from "../../src/terminals/screen-thread.js";
import { TerminalScreen, type ScreenLine } from "../../src/terminals/terminal-screen.js";
import { waitUntil } from "../support/wait.js";

// A client terminal's emulator runs on the screen thread; what the pane reads is the latest frame
// it sent. These tests hold that copy to the emulator itself, fed the very same bytes.

const started: ClientTerminal[] = [];
const direct: TerminalScreen[] = [];
function run(options: ClientTerminalOptions): ClientTerminal {
  const terminal = new ClientTerminal(options);
  started.push(terminal);
  return terminal;
}
afterEach(() => {
  for (const terminal of started.splice(0)) {
    terminal.release();
    terminal.screen.dispose();
  }
  for (const screen of direct.splice(0)) screen.dispose();
});

/** The emulator on this thread, fed what the command printed (the output log holds every byte). */
async function sameBytesDirectly(terminal: ClientTerminal, cols: number, rows: number): Promise<TerminalScreen> {
  const screen = new TerminalScreen({ cols, rows });
  direct.push(screen);
  screen.write(terminal.output().output);
  await screen.flush();
  return screen;
}

const node = process.execPath;

describe("a client terminal's screen, parsed on the screen thread", () => {
  it("shows colours, cursor moves and a progress bar exactly as the emulator does", async () => {
    const script = [
      "const w = (s) => process.stdout.write(s);",
      // Palette, 256-colour and RGB colours; bold, dim, italic, underline, inverse; a background.
      "w('\\x1b[31mred\\x1b[0m \\x1b[1;32mbold green\\x1b[0m \\x1b[38;5;208morange\\x1b[0m \\x1b[38;2;10;20;30mrgb\\x1b[0m\\r\\n');",
      "w('\\x1b[2mdim\\x1b[0m \\x1b[3mitalic\\x1b[0m \\x1b[4munder\\x1b[0m \\x1b[7minverse\\x1b[0m \\x1b[44m on blue \\x1b[0m\\r\\n');",
      // Cursor moves: up two rows, to column 10, overwrite; then back down.
      "w('line three\\r\\nline four\\r\\n\\x1b[2A\\x1b[10GXX\\x1b[2B\\r');",
      // A progress bar redrawn in place with \\r.
      "for (let i = 0; i <= 10; i++) w('\\r[' + '#'.repeat(i) + ' '.repeat(10 - i) + '] ' + i * 10 + '%');",
      "w('\\r\\n\\x1b[32m✔\\x1b[0m done 日本語\\r\\n');",
    ].join("\n");
    const terminal = run({ command: node, args: ["-e", script], cols: 40, rows: 10 });
    await terminal.waitForExit();
    const screen = await sameBytesDirectly(terminal, 40, 10);

    expect(terminal.screen.snapshot({ tail: 10 })).toEqual(screen.snapshot({ tail: 10 }));
    expect(terminal.screen.snapshot({ tail: 10 }).map((line) => line.map((s) => s.text).join(""))).toEqual([
      "red bold green orange rgb",
      // The background colours the trailing space, so it stays.
      "dim italic under inverse  on blue ",
      "line threXX",
      "line four",
      "[##########] 100%",
      "✔ done 日本語",
    ]);
    expect(terminal.screen.cursor).toEqual(screen.cursor);
    expect(await terminal.screen.plainText()).toBe(screen.plainText());
    // The visible rows, as asked with no option, come with the next frame.
    await waitUntil(() => JSON.stringify(terminal.screen.snapshot()) === JSON.stringify(screen.snapshot()), "the visible rows arrived");
  });

  it("reads any text as the emulator reads it: wide, emoji, combining marks, bytes that are not UTF-8, characters split across reads", async () => {
    const script = [
      "const w = (b) => process.stdout.write(Buffer.from(b));",
      "w('日本語 \\u{1F600} e\\u0301 \\u2714\\r\\n');",
      // Not UTF-8: a lone continuation byte, a cut-off sequence, a byte that never starts one.
      "w([0x61, 0x80, 0x62, 0xe2, 0x9c, 0x63, 0xff, 0x0d, 0x0a]);",
      // A four-byte character in two writes, apart in time, so they come in two reads.
      "const smile = Buffer.from('\\u{1F642}\\r\\n');",
      "w(smile.subarray(0, 2)); setTimeout(() => { w(smile.subarray(2)); w('\\x1b[35m' + '\\u00e9\\u4e2d'.repeat(30) + '\\x1b[0m\\r\\nend\\r\\n'); }, 50);",
    ].join("\n");
    const terminal = run({ command: node, args: ["-e", script], cols: 30, rows: 10 });
    await terminal.waitForExit();
    const screen = await sameBytesDirectly(terminal, 30, 10);
    expect(terminal.screen.snapshot({ tail: 10 })).toEqual(screen.snapshot({ tail: 10 }));
    expect(await terminal.screen.plainText()).toBe(screen.plainText());
    expect(screen.plainText()).toContain("a\ufffdb\ufffdc\ufffd");
    expect(screen.plainText()).toContain("\u{1F642}");
  });

  it("has every last line of a command that floods and exits at once on the screen when the exit is reported", async () => {
    const lines = 50_000;
    const terminal = run({
      command: node,
      args: ["-e", `let s = ''; for (let i = 1; i <= ${lines}; i++) s += 'line ' + i + '\\n'; process.stdout.write(s + 'the end\\n');`],
      cols: 60,
      rows: 8,
      outputByteLimit: 4 * 1024 * 1024,
    });
    let tailAtExit: string[] = [];
    terminal.onExit(() => {
      tailAtExit = terminal.screen.snapshot({ tail: 2 }).map((line) => line.map((s) => s.text).join(""));
    });
    await terminal.waitForExit();
    expect(tailAtExit).toEqual([`line ${lines}`, "the end"]);
    const text = await terminal.screen.plainText();
    expect(text.split("\n").at(-1)).toBe("the end");
    // 50,001 lines overflow the 10,000 rows of scrollback.
    expect(terminal.screen.scrollbackRows).toBe(10_000);
  });

  it("brings a scrolled window and a taller tail with the next frame, and tells the view", async () => {
    const terminal = run({ command: "sh", args: ["-c", "for i in $(seq 1 100); do echo row $i; done; read x"], cols: 30, rows: 5 });
    await waitUntil(() => terminal.screen.snapshot({ tail: 1 })[0]?.[0]?.text === "row 100", "the output");
    const screen = await sameBytesDirectly(terminal, 30, 5);
    let changes = 0;
    terminal.onScreenChange(() => changes++);

    terminal.screen.snapshot({ scrollOffset: 40, rows: 5 });
    await waitUntil(() => changes > 0, "a frame with the window");
    expect(terminal.screen.snapshot({ scrollOffset: 40, rows: 5 })).toEqual(screen.snapshot({ scrollOffset: 40, rows: 5 }));

    changes = 0;
    expect(terminal.screen.snapshot({ tail: 20 }).length).toBeLessThan(20);
    await waitUntil(() => changes > 0, "a frame with the taller tail");
    expect(terminal.screen.snapshot({ tail: 20 })).toEqual(screen.snapshot({ tail: 20 }));
  });

  it("keeps a finished command's first and last rows and counts them all, once its exit is reported", async () => {
    const terminal = run({ command: "sh", args: ["-c", "for i in $(seq 1 1000); do echo row $i; done"], cols: 30, rows: 5 });
    let seen: { head: string[]; tail: string[]; rows: number } | undefined;
    const text = (lines: ScreenLine[]) => lines.map((line) => line.map((s) => s.text).join(""));
    terminal.onExit(() => {
      seen = {
        head: text(terminal.screen.snapshot({ head: 2 })),
        tail: text(terminal.screen.snapshot({ tail: 400 })),
        rows: terminal.screen.contentRows,
      };
    });
    await terminal.waitForExit();
    expect(seen?.head).toEqual(["row 1", "row 2"]);
    expect(seen?.tail).toHaveLength(400);
    expect(seen?.tail.at(-1)).toBe("row 1000");
    expect(seen?.rows).toBe(1000);
  });

  it("reflows on resize and sends the new rows", async () => {
    const terminal = run({ command: "sh", args: ["-c", "printf 'abcdefghij%.0s' 1 2 3; echo; echo ok; read x"], cols: 30, rows: 4 });
    await waitUntil(() => terminal.output().output.includes("ok"), "the output arrived");
    await terminal.screen.flush();
    const screen = await sameBytesDirectly(terminal, 30, 4);
    let changes = 0;
    terminal.onScreenChange(() => changes++);
    terminal.resize(10, 4);
    screen.resize(10, 4);
    expect(terminal.screen.cols).toBe(10);
    await waitUntil(() => changes > 0, "a frame after the resize");
    expect(terminal.screen.snapshot({ tail: 4 })).toEqual(screen.snapshot({ tail: 4 }));
    expect(terminal.screen.snapshot({ tail: 4 }).map((line) => line.map((s) => s.text).join(""))).toEqual([
      "abcdefghij",
      "abcdefghij",
      "abcdefghij",
      "ok",
    ]);
  });
});

describe("a screen whose thread fails", () => {
  it("says why in place of the rows, and nothing waits on it forever", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "conch-screen-thread-"));
    const broken = path.join(dir, "broken-worker.mjs");
    writeFileSync(broken, 'throw new Error("no emulator here");\n');
    const screen = new ScreenMirror({ cols: 20, rows: 3 }, new ScreenThread(() => broken));
    let changed = false;
    let parsed = false;
    screen.onChange(() => (changed = true));
    screen.onParsed(() => (parsed = true));
    screen.write("hello\r\n");
    await screen.flush();
    await waitUntil(() => changed && parsed, "the failure reached the screen");
    expect(screen.snapshot({ tail: 3 })).toEqual([[{ text: "(the screen thread failed: no emulator here)", dim: true }]]);
    expect(screen.pending).toBe(0);
    expect(await screen.plainText()).toBe("");
    screen.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
});
