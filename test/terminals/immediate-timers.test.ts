import { describe, expect, it } from "vitest";
import { immediateZeroDelayTimers, type TimerScope } from "../../src/terminals/immediate-timers.js";

/** A scope whose own timers only record what was asked of them. */
function scope(): TimerScope & { delayed: number[]; cleared: unknown[] } {
  const delayed: number[] = [];
  const cleared: unknown[] = [];
  return {
    delayed,
    cleared,
    setTimeout: ((_fn: () => void, delay: number) => {
      delayed.push(delay);
      return { delayed: delay };
    }) as unknown as typeof setTimeout,
    clearTimeout: ((timer: unknown) => cleared.push(timer)) as typeof clearTimeout,
  };
}

const nextImmediate = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("zero-delay timers as immediates (the screen thread's xterm)", () => {
  it("runs setTimeout(fn) and setTimeout(fn, 0) as immediates, with their arguments, and leaves delays of 1 ms and more to setTimeout", async () => {
    const s = scope();
    immediateZeroDelayTimers(s);
    const ran: unknown[] = [];
    s.setTimeout(() => ran.push("none"));
    s.setTimeout((a: unknown, b: unknown) => ran.push([a, b]), 0, "x", 2);
    s.setTimeout(() => ran.push("half"), 0.5);
    s.setTimeout(() => ran.push("later"), 1);
    s.setTimeout(() => ran.push("later"), 33);
    await nextImmediate();
    expect(ran).toEqual(["none", ["x", 2], "half"]);
    expect(s.delayed).toEqual([1, 33]);
  });

  it("cancels either kind with clearTimeout", async () => {
    const s = scope();
    immediateZeroDelayTimers(s);
    const ran: string[] = [];
    const soon = s.setTimeout(() => ran.push("soon"));
    const later = s.setTimeout(() => ran.push("later"), 100);
    s.clearTimeout(soon);
    s.clearTimeout(later);
    s.clearTimeout(undefined);
    await nextImmediate();
    expect(ran).toEqual([]);
    expect(s.cleared).toEqual([later, undefined]);
  });
});
