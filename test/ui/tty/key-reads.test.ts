import { describe, expect, it } from "vitest";
import { KeyReadSplitter, PASTE_END, PASTE_START } from "../../../src/ui/tty/key-reads.js";

const starting = { starting: true };
const live = { starting: false };

const split = (...chunks: string[]) => {
  const splitter = new KeyReadSplitter();
  const reads = chunks.flatMap((chunk) => splitter.push(chunk, starting).reads);
  return [...reads, ...splitter.flush()];
};

describe("reads cut at each Enter, while conch loads", () => {
  it("each Enter ends a read of its own, so two messages typed into one read stay two", () => {
    expect(split("hello\rworld\r")).toEqual(["hello\r", "world\r"]);
    expect(split("hel", "lo\rwor", "ld")).toEqual(["hel", "lo\r", "wor", "ld"]);
  });

  it("a paste stays whole, its line breaks included, even when a read cuts it or its markers", () => {
    const paste = `${PASTE_START}line one\rline two\r${PASTE_END}`;
    expect(split(`a${paste}\r`)).toEqual([`a${paste}\r`]);
    expect(split(`${PASTE_START}one\rtw`, `o${PASTE_END.slice(0, 3)}`, `${PASTE_END.slice(3)}\rnext`)).toEqual([
      `${PASTE_START}one\rtw`,
      "o",
      `${PASTE_END}\r`,
      "next",
    ]);
  });

  it("keeps escape sequences whole, each a key of its own: Alt+Enter and arrows are not cut", () => {
    expect(split("a\x1b\rb\x1b[D\r")).toEqual(["a", "\x1b\r", "b", "\x1b[D", "\r"]);
    expect(split("x\x1b[13;2ux\x1bOAy")).toEqual(["x", "\x1b[13;2u", "x", "\x1bOA", "y"]);
  });

  it("a control key typed with text while conch was busy is a key, not text (Ctrl-U between letters)", () => {
    expect(split("n\x15o")).toEqual(["n", "\x15", "o"]);
    expect(split("ab\x7fc\tz")).toEqual(["ab", "\x7f", "c", "\t", "z"]);
  });

  it("Ctrl-C outside a paste is the user wanting out: what follows is dropped", () => {
    const splitter = new KeyReadSplitter();
    expect(splitter.push("abc\r", starting)).toEqual({ reads: ["abc\r"], interrupted: false, kittyAnswered: false });
    expect(splitter.push("de\x03fg\r", starting)).toEqual({ reads: ["de"], interrupted: true, kittyAnswered: false });
    expect(split(`${PASTE_START}x\x03y${PASTE_END}`)).toEqual([`${PASTE_START}x\x03y${PASTE_END}`]);
  });

  it("takes the terminal's answer to the kitty-keyboard query out of the keys, even cut in two", () => {
    const splitter = new KeyReadSplitter();
    expect(splitter.push("ab\x1b[?1", starting)).toEqual({ reads: ["ab"], interrupted: false, kittyAnswered: false });
    expect(splitter.push("u\r", starting)).toEqual({ reads: ["\r"], interrupted: false, kittyAnswered: true });
  });

  it("a lone Escape at the end of a read is handed over when the editor goes live", () => {
    const splitter = new KeyReadSplitter();
    expect(splitter.push("x\x1b", starting).reads).toEqual(["x"]);
    expect(splitter.flush()).toEqual(["\x1b"]);
  });
});

describe("reads cut at each Enter, once the editor is live", () => {
  it("still makes each Enter its own read: a busy moment never joins two messages", () => {
    const splitter = new KeyReadSplitter();
    expect(splitter.push("bwc", live).reads).toEqual(["bwc"]);
    expect(splitter.push("\rdqf", live).reads).toEqual(["\r", "dqf"]);
    expect(splitter.push(`${PASTE_START}a\rb${PASTE_END}\r`, live).reads).toEqual([`${PASTE_START}a\rb${PASTE_END}\r`]);
  });

  it("passes an Escape at the end of a read on at once, and Ctrl-C is a key like any other", () => {
    const splitter = new KeyReadSplitter();
    expect(splitter.push("\x1b", live).reads).toEqual(["\x1b"]);
    expect(splitter.push("a\x03b", live)).toEqual({ reads: ["a", "\x03", "b"], interrupted: false, kittyAnswered: false });
  });
});
