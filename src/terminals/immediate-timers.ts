/** The timer functions of a global scope that `immediateZeroDelayTimers` replaces. */
export interface TimerScope {
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
}

/**
 * Makes `setTimeout(fn)` and `setTimeout(fn, 0)` in `scope` run `fn` as an immediate; timers with
 * a delay of 1 ms or more are left to `setTimeout`. For the screen thread: xterm starts parsing a
 * write, and goes on after each 12 ms slice of a long one, with a zero-delay `setTimeout`, which
 * Node makes wait at least 1 ms. In a 20 MiB pane flood that was some 300 waits of ~1.3 ms each,
 * with output ready to parse, where an immediate waits ~0.1 ms. An immediate still runs after the
 * thread's pending messages, so a view or a resize asked for between two slices is answered
 * between them, as before. `clearTimeout` cancels either kind.
 */
export function immediateZeroDelayTimers(scope: TimerScope = globalThis): void {
  const delayed = scope.setTimeout;
  const clearDelayed = scope.clearTimeout;
  const immediates = new WeakSet<object>();
  const zeroDelay = (callback: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    // Node runs any delay below 1 ms (or not a number) after 1 ms.
    if (typeof delay === "number" && delay >= 1) return delayed(callback, delay, ...args);
    const immediate = setImmediate(callback, ...args);
    immediates.add(immediate);
    return immediate;
  };
  scope.setTimeout = zeroDelay as unknown as typeof setTimeout;
  scope.clearTimeout = ((timer?: Parameters<typeof clearTimeout>[0]) => {
    if (typeof timer === "object" && timer !== null && immediates.has(timer)) clearImmediate(timer as unknown as NodeJS.Immediate);
    else clearDelayed(timer);
  }) as typeof clearTimeout;
}
