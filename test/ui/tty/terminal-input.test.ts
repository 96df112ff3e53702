import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { TerminalInput, speaksKittyKeyboard, type InkInput } from "../../../src/ui/tty/terminal-input.js";

/** A terminal as conch sees it: keys come in as reads; raw mode and output are recorded. */
class FakeTty extends EventEmitter {
  raw: boolean[] = [];
  written = "";
  paused = false;
  setRawMode(mode: boolean) {
    this.raw.push(mode);
  }
  pause() {
    this.paused = true;
  }
  type(text: string) {
    this.emit("data", Buffer.from(text));
  }
  write(text: string) {
    this.written += text;
  }
}

/** Everything the UI can read now, one entry per read. */
function drain(stream: InkInput): string[] {
  const reads: string[] = [];
  for (let read = stream.read(); read !== null; read = stream.read()) reads.push(String(read));
  return reads;
}

/** Past the turns of the event loop in which keys typed before raw mode are read. */
const afterFirstTurn = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe("the terminal from conch's first millisecond", () => {
  it("goes raw and asks for bracketed paste at once; the kitty query only where the terminal knows it", () => {
    const tty = new FakeTty();
    TerminalInput.open(tty, tty);
    expect(tty.raw).toEqual([true]);
    expect(tty.written).toBe("\x1b[?2004h");
    const kitty = new FakeTty();
    TerminalInput.open(kitty, kitty, { askKitty: true });
    expect(kitty.written).toBe("\x1b[?2004h\x1b[?u");
    expect(speaksKittyKeyboard({ TERM: "xterm-kitty" })).toBe(true);
    expect(speaksKittyKeyboard({ TERM: "xterm-256color" })).toBe(false);
    expect(speaksKittyKeyboard({ TERM: "xterm-kitty", CI: "true" })).toBe(false);
  });

  it("keeps every key typed while loading that the instant editor leaves, and hands them to the UI first, in order, one read per message", async () => {
    const tty = new FakeTty();
    const input = TerminalInput.open(tty, tty);
    await afterFirstTurn();
    const shown: string[][] = [];
    // The instant prompt's editor takes the first read and leaves the rest to the UI.
    input.onKeysHeld((reads) => {
      shown.push(reads);
      return shown.length === 1 ? [] : reads;
    });
    tty.type("hello\rwor");
    tty.type("ld\r");
    tty.type("again\r");
    expect(shown).toEqual([["hello\r", "wor"], ["ld\r"], ["again\r"]]);
    const stream = input.stream();
    // Ink sets an encoding on every raw-mode change; that must not join the kept reads.
    stream.setEncoding("utf8");
    tty.type("after\rlive\r");
    expect(drain(stream)).toEqual(["ld\r", "again\r", "after\r", "live\r"]);
  });

  it("reads Enter typed before raw mode (cooked, so a newline) as Enter", async () => {
    const tty = new FakeTty();
    const input = TerminalInput.open(tty, tty);
    tty.type("early\nto");
    await afterFirstTurn();
    tty.type("o\n");
    expect(drain(input.stream())).toEqual(["early\r", "to", "o", "\n"]);
  });

  it("Ctrl-C while loading is the user wanting out; once the UI reads, it is the UI's key", async () => {
    const tty = new FakeTty();
    const input = TerminalInput.open(tty, tty);
    await afterFirstTurn();
    let interrupted = 0;
    input.whenInterrupted(() => interrupted++);
    tty.type("abc\x03def");
    expect(interrupted).toBe(1);
    expect(input.interrupted).toBe(true);

    const later = new FakeTty();
    const live = TerminalInput.open(later, later);
    let quit = false;
    live.whenInterrupted(() => (quit = true));
    const stream = live.stream();
    later.type("\x03");
    live.interrupt();
    expect(quit).toBe(false);
    expect(drain(stream)).toEqual(["\x03"]);
  });

  it("a signal while loading ends startup the way Ctrl-C does", () => {
    const tty = new FakeTty();
    const input = TerminalInput.open(tty, tty);
    let interrupted = false;
    input.whenInterrupted(() => (interrupted = true));
    input.interrupt();
    expect(interrupted).toBe(true);
  });

  it("takes the kitty query's answer out of the keys and remembers the terminal speaks the protocol", async () => {
    const tty = new FakeTty();
    const input = TerminalInput.open(tty, tty, { askKitty: true });
    await afterFirstTurn();
    tty.type("a\x1b[?0ub");
    expect(input.kittyKeyboard).toBe(true);
    expect(drain(input.stream())).toEqual(["ab"]);
  });

  it("gives the terminal back on close: bracketed paste off, raw mode off, no more reading", () => {
    const tty = new FakeTty();
    const input = TerminalInput.open(tty, tty);
    const stream = input.stream();
    input.close();
    expect(tty.written.endsWith("\x1b[?2004l")).toBe(true);
    expect(tty.raw).toEqual([true, false]);
    expect(tty.paused).toBe(true);
    tty.type("ignored");
    expect(drain(stream)).toEqual([]);
  });

  it("lends the terminal to a program and takes it back: keys typed meanwhile are the program's", async () => {
    const tty = new FakeTty();
    const input = TerminalInput.open(tty, tty);
    await afterFirstTurn();
    const stream = input.stream();
    input.suspend();
    expect(tty.raw).toEqual([true, false]);
    expect(tty.written.endsWith("\x1b[?2004l")).toBe(true);
    tty.type("typed into the editor");
    expect(drain(stream)).toEqual([]);
    input.resume();
    expect(tty.raw).toEqual([true, false, true]);
    expect(tty.written.endsWith("\x1b[?2004h")).toBe(true);
    tty.type("x");
    expect(drain(stream)).toEqual(["x"]);
  });
});
