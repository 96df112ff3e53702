import { afterEach, describe, expect, it } from "vitest";
import { TerminalScreen, type ScreenLine } from "../../src/terminals/terminal-screen.js";

const screens: TerminalScreen[] = [];
function screen(options: ConstructorParameters<typeof TerminalScreen>[0] = {}): TerminalScreen {
  const created = new TerminalScreen(options);
  screens.push(created);
  return created;
}
afterEach(() => {
  for (const created of screens.splice(0)) created.dispose();
});

async function show(target: TerminalScreen, data: string): Promise<void> {
  target.write(data);
  await target.flush();
}

const text = (line: ScreenLine): string => line.map((segment) => segment.text).join("");

describe("TerminalScreen", () => {
  it("ends a \\r progress bar as one line holding the last state", async () => {
    const s = screen({ cols: 40, rows: 5 });
    await show(s, "Downloading  10%\rDownloading  55%\rDownloading 100%\r\ndone\r\n");
    expect(s.plainText()).toBe("Downloading 100%\ndone");
    expect(s.snapshot({ tail: 10 }).map(text)).toEqual(["Downloading 100%", "done"]);
  });

  it("keeps palette and RGB colours and text attributes as segments", async () => {
    const s = screen({ cols: 40, rows: 3 });
    await show(s, "\x1b[31mred\x1b[0m plain \x1b[1;38;2;255;0;128mpink\x1b[0m \x1b[44;4mblue\x1b[0m");
    expect(s.snapshot()[0]).toEqual([
      { text: "red", fg: 1 },
      { text: " plain " },
      { text: "pink", fg: "#ff0080", bold: true },
      { text: " " },
      { text: "blue", bg: 4, underline: true },
    ]);
  });

  it("reads 256-colour indexes and dim, italic and inverse", async () => {
    const s = screen({ cols: 40, rows: 3 });
    await show(s, "\x1b[38;5;208;2mA\x1b[0m\x1b[3mB\x1b[0m\x1b[7mC\x1b[0m");
    expect(s.snapshot()[0]).toEqual([
      { text: "A", fg: 208, dim: true },
      { text: "B", italic: true },
      { text: "C", inverse: true },
    ]);
  });

  it("trims trailing blank cells but keeps a coloured background", async () => {
    const s = screen({ cols: 20, rows: 3 });
    await show(s, "hi   \r\n\x1b[42m  \x1b[0m   ");
    const [first, second, third] = s.snapshot();
    expect(first).toEqual([{ text: "hi" }]);
    expect(second).toEqual([{ text: "  ", bg: 2 }]);
    expect(third).toEqual([]);
  });

  it("follows cursor movement", async () => {
    const s = screen({ cols: 20, rows: 3 });
    await show(s, "abc\x1b[2Dz\x1b[2;5Hxy");
    expect(s.plainText()).toBe("azc\n    xy");
    expect(s.cursor).toEqual({ x: 6, y: 1 });
  });

  it("shows wide characters once", async () => {
    const s = screen({ cols: 20, rows: 2 });
    await show(s, "日本語 ok");
    expect(s.snapshot()[0]).toEqual([{ text: "日本語 ok" }]);
  });

  it("clear-screen empties the visible rows", async () => {
    const s = screen({ cols: 20, rows: 4 });
    await show(s, "one\r\ntwo\r\nthree");
    await show(s, "\x1b[2J\x1b[H");
    expect(s.snapshot().map(text)).toEqual(["", "", "", ""]);
    await show(s, "after");
    expect(s.snapshot()[0]).toEqual([{ text: "after" }]);
  });

  it("shows a full-screen program on the alternate screen and the shell again after it", async () => {
    const s = screen({ cols: 30, rows: 4 });
    await show(s, "$ vim notes.txt\r\n");
    await show(s, "\x1b[?1049h\x1b[H\x1b[2J~ editing");
    expect(s.bufferType).toBe("alternate");
    expect(s.plainText()).toBe("~ editing");
    await show(s, "\x1b[?1049l");
    expect(s.bufferType).toBe("normal");
    expect(s.plainText()).toBe("$ vim notes.txt");
  });

  it("scrolls back through history and bounds it by the scrollback limit", async () => {
    const s = screen({ cols: 10, rows: 5, scrollback: 20 });
    await show(s, Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\r\n"));
    expect(s.snapshot().map(text)).toEqual(["line 95", "line 96", "line 97", "line 98", "line 99"]);
    expect(s.scrollbackRows).toBe(20);
    expect(s.snapshot({ scrollOffset: 3, rows: 2 }).map(text)).toEqual(["line 95", "line 96"]);
    // Past the top of the scrollback the window stops at the oldest kept line.
    expect(s.snapshot({ scrollOffset: 1000 }).map(text)[0]).toBe("line 75");
    expect(s.plainText().split("\n")).toHaveLength(25);
  });

  it("gives the last rows with content, dropping blank rows below but not between", async () => {
    const s = screen({ cols: 10, rows: 10 });
    await show(s, "a\r\n\r\nb\r\nc\r\n");
    expect(s.snapshot({ tail: 3 }).map(text)).toEqual(["", "b", "c"]);
    expect(s.snapshot({ tail: 10 }).map(text)).toEqual(["a", "", "b", "c"]);
    expect(screen().snapshot({ tail: 3 })).toEqual([]);
  });

  it("counts blank lines the output ended with a newline as output, not the row the cursor waits on", async () => {
    const s = screen({ cols: 10, rows: 10 });
    await show(s, "tick\r\n\r\n\r\n");
    expect(s.snapshot({ tail: 10 }).map(text)).toEqual(["tick", "", ""]);
    expect(s.snapshot({ head: 10 }).map(text)).toEqual(["tick", "", ""]);
    expect(s.contentRows).toBe(3);
    await show(s, "done");
    expect(s.snapshot({ tail: 10 }).map(text)).toEqual(["tick", "", "", "done"]);
  });

  it("joins soft-wrapped rows in plain text and reflows on resize", async () => {
    const s = screen({ cols: 5, rows: 4 });
    // xterm does not reflow the row the cursor is on, so the line is finished first.
    await show(s, "abcdefgh\r\n");
    expect(s.snapshot().map(text).slice(0, 2)).toEqual(["abcde", "fgh"]);
    expect(s.plainText()).toBe("abcdefgh");
    s.resize(10, 4);
    await s.flush();
    expect(s.cols).toBe(10);
    expect(s.snapshot()[0]).toEqual([{ text: "abcdefgh" }]);
  });

  it("converts bare line feeds when asked (output that never went through a PTY)", async () => {
    const s = screen({ cols: 10, rows: 4, convertEol: true });
    await show(s, "tick\ndone\n");
    expect(s.plainText()).toBe("tick\ndone");
  });

  it("answers a cursor position query through onReply", async () => {
    const s = screen({ cols: 10, rows: 4 });
    const replies: string[] = [];
    s.onReply((reply) => replies.push(reply));
    await show(s, "ab\x1b[6n");
    expect(replies).toEqual(["\x1b[1;3R"]);
  });
});
