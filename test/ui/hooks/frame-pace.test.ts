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

  it("asks for the frame time once a frame, not at every change (a flood makes tens of thousands a second)", async () => {
    let now = 0;
    let flushes = 0;
    let asked = 0;
    const scheduler = new FrameScheduler(
      () => flushes++,
      () => (asked++, 50),
      () => now,
    );
    scheduler.request();
    await Promise.resolve();
    expect(flushes).toBe(1);
    for (let i = 0; i < 10_000; i++) scheduler.request();
    now = 50;
    vi.advanceTimersByTime(50);
    expect(flushes).toBe(2);
    expect(asked).toBe(2);
  });
});
