import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FrameScheduler, onlyTextGrew } from "../../../src/ui/hooks/use-session-state.js";
import { FakeSession } from "../fake-session.js";

// A stream whose only change is more text of its newest message is drawn at TEXT_FRAME_MS; any
// other change at FRAME_MS, even when a text frame is already waiting.

describe("onlyTextGrew", () => {
  it("holds while a message or a thought streams, and not for anything else", () => {
    const s = new FakeSession().open();
    s.prompt("go");
    s.chunk("Hello");
    let before = s.state;
    s.chunk(" world");
    expect(onlyTextGrew(before, s.state)).toBe(true);
    before = s.state;
    s.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } });
    // A new item (the thought) is another kind of change.
    expect(onlyTextGrew(before, s.state)).toBe(false);
    before = s.state;
    s.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: " more" } });
    expect(onlyTextGrew(before, s.state)).toBe(true);
    before = s.state;
    s.update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "ls", kind: "execute", status: "pending" });
    expect(onlyTextGrew(before, s.state)).toBe(false);
    before = s.state;
    s.update({ sessionUpdate: "usage_update", used: 10, size: 100 });
    expect(onlyTextGrew(before, s.state)).toBe(false);
    expect(onlyTextGrew(s.state, s.state)).toBe(false);
  });
});

describe("FrameScheduler", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("brings a waiting frame forward when a change that draws sooner comes", async () => {
    let now = 0;
    let flushes = 0;
    let frameMs = 50;
    const scheduler = new FrameScheduler(
      () => flushes++,
      () => frameMs,
      () => now,
    );
    scheduler.request();
    // The first frame is drawn now or at the end of this turn.
    await Promise.resolve();
    expect(flushes).toBe(1);
    scheduler.request();
    now = 10;
    frameMs = 33;
    scheduler.request();
    now = 33;
    vi.advanceTimersByTime(23);
    expect(flushes).toBe(2);
    // A text frame waits its 50 ms; a later text change does not push it back.
    frameMs = 50;
    scheduler.request();
    now = 60;
    vi.advanceTimersByTime(27);
    scheduler.request();
    expect(flushes).toBe(2);
    now = 83;
    vi.advanceTimersByTime(23);
    expect(flushes).toBe(3);
    vi.advanceTimersByTime(200);
    expect(flushes).toBe(3);
  });
});
