import { describe, expect, it, vi } from "vitest";
import { ScreenMirror } from "../../src/terminals/screen-mirror.js";
import type { ScreenThread, ScreenThreadClient } from "../../src/terminals/screen-thread.js";
import type { ToScreenThread } from "../../src/terminals/screen-protocol.js";

// How a pane's output travels to the screen thread: what is posted, when, and in what order. A
// thread of our own records the messages and answers only when told, so the order is exact.

/** A screen thread that records what it is sent and tells the screen what the test says. */
function recordingThread() {
  const sent: ToScreenThread[] = [];
  let client: ScreenThreadClient | undefined;
  const thread = {
    attach: (c: ScreenThreadClient) => ((client = c), 1),
    detach: () => undefined,
    post: (message: ToScreenThread) => void sent.push(message),
    beginWait: () => undefined,
    endWait: () => undefined,
  } as unknown as ScreenThread;
  // The text each write carries (as UTF-8), held to the length it says it has.
  const writes = () =>
    sent.flatMap((m) => {
      if (m.type !== "write") return [];
      const text = new TextDecoder().decode(m.data);
      expect(m.chars).toBe(text.length);
      return [text];
    });
  return { thread, sent, writes, parsed: (chars: number) => client?.receive({ type: "parsed", id: 1, chars }) };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("a pane's output on its way to the screen thread", () => {
  it("goes at once while the thread keeps up, and as one message per catch-up while it is behind", async () => {
    const t = recordingThread();
    const screen = new ScreenMirror({ cols: 80, rows: 24 }, t.thread);
    screen.write("quiet\r\n");
    await turn();
    expect(t.writes()).toEqual(["quiet\r\n"]);

    // A flood: the thread has 100,000 characters it has not parsed yet; the next reads wait for it.
    t.parsed(7);
    screen.write("x".repeat(100_000));
    await turn();
    for (let i = 0; i < 50; i++) {
      screen.write(`read ${i};`);
      await turn();
    }
    expect(t.writes()).toHaveLength(2);
    const held = Array.from({ length: 50 }, (_, i) => `read ${i};`).join("");
    expect(screen.pending).toBe(100_000 + held.length);
    t.parsed(100_000);
    // The thread caught up right after a message: what waits goes a few milliseconds later.
    await vi.waitFor(() => expect(t.writes()).toHaveLength(3));
    expect(t.writes()[2]).toBe(held);
    screen.dispose();
  });

  it("batches a flood the thread keeps up with: reads right after a message wait, a quiet spell's go at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      const t = recordingThread();
      const screen = new ScreenMirror({ cols: 80, rows: 24 }, t.thread);
      let parsed = 0;
      const keepUp = () => {
        const written = t.writes().join("").length;
        t.parsed(written - parsed);
        parsed = written;
      };
      // Twenty reads, each parsed as soon as it is posted: the first goes at once, the rest together.
      for (let i = 0; i < 20; i++) {
        screen.write(`line ${i}\r\n`);
        await turn();
        keepUp();
      }
      expect(t.writes()).toEqual(["line 0\r\n"]);
      vi.advanceTimersByTime(4);
      expect(t.writes()).toEqual(["line 0\r\n", Array.from({ length: 19 }, (_, i) => `line ${i + 1}\r\n`).join("")]);
      keepUp();
      expect(screen.pending).toBe(0);
      // After a quiet spell, output goes in the turn it came in.
      vi.advanceTimersByTime(10);
      screen.write("typed");
      await turn();
      expect(t.writes().at(-1)).toBe("typed");
      screen.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it("never reorders: a resize or a flush asked while output waits goes after that output", async () => {
    const t = recordingThread();
    const screen = new ScreenMirror({ cols: 80, rows: 24 }, t.thread);
    screen.write("y".repeat(100_000));
    await turn();
    screen.write("before the resize");
    screen.resize(100, 30);
    void screen.flush();
    expect(t.sent.map((m) => m.type)).toEqual(["open", "write", "write", "resize", "flush"]);
    expect(t.writes()[1]).toBe("before the resize");
    screen.dispose();
  });

  it("holds at most a batch back for a thread that is behind: reads go as one 64 KiB message", async () => {
    const t = recordingThread();
    const screen = new ScreenMirror({ cols: 80, rows: 24 }, t.thread);
    screen.write("z".repeat(100_000));
    await turn();
    for (let i = 0; i < 30; i++) {
      screen.write("w".repeat(4000));
      await turn();
    }
    // 17 reads make the first 64 KiB; the 13 after them wait for the next batch or for the thread.
    expect(t.writes().map((w) => w.length)).toEqual([100_000, 17 * 4000]);
    t.parsed(100_000 + 17 * 4000);
    await vi.waitFor(() => expect(t.writes().map((w) => w.length)).toEqual([100_000, 17 * 4000, 13 * 4000]));
    screen.dispose();
  });
});
