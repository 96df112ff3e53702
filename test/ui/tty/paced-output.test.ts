import { describe, expect, it, vi } from "vitest";
import { pacedOutput } from "../../../src/ui/tty/paced-output.js";

/** A terminal stream whose queue the test fills and empties. */
function terminal() {
  const calls: boolean[] = [];
  const stream = { isTTY: true, writableLength: 0, _handle: { setBlocking: (b: boolean) => (calls.push(b), 0) } };
  return { stream, calls, out: pacedOutput(stream as unknown as NodeJS.WriteStream) };
}

describe("paced output", () => {
  it("stops blocking for a backlog and blocks again only once its queue has gone out", () => {
    vi.useFakeTimers();
    try {
      const { stream, calls, out } = terminal();
      out.blocking(false);
      expect(calls).toEqual([false]);
      stream.writableLength = 50_000;
      expect(out.drained()).toBe(false);
      out.blocking(true);
      vi.advanceTimersByTime(50);
      expect(calls).toEqual([false]);
      stream.writableLength = 0;
      vi.advanceTimersByTime(50);
      expect(calls).toEqual([false, true]);
      out.blocking(true);
      expect(calls).toEqual([false, true]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a backlog that starts again before the queue went out keeps writes non-blocking", () => {
    vi.useFakeTimers();
    try {
      const { stream, calls, out } = terminal();
      out.blocking(false);
      stream.writableLength = 1;
      out.blocking(true);
      out.blocking(false);
      stream.writableLength = 0;
      vi.advanceTimersByTime(50);
      expect(calls).toEqual([false]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a stream that is not a terminal (a test's) is never touched and never waits", () => {
    const setBlocking = vi.fn();
    const out = pacedOutput({ isTTY: false, writableLength: 9, _handle: { setBlocking } } as unknown as NodeJS.WriteStream);
    out.blocking(false);
    expect(out.drained()).toBe(true);
    expect(setBlocking).not.toHaveBeenCalled();
  });
});
