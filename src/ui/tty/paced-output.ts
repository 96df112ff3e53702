/**
 * The terminal's output while a long backlog is written. Node writes to a terminal synchronously:
 * when the emulator reads slower than conch writes, a write of a backlog's rows blocks the main
 * thread until the PTY takes the last byte (5-37 ms a write measured during a 2,000-turn resume),
 * and a key typed meanwhile is not even read. Made non-blocking, a write returns at once and
 * libuv hands the rest to the PTY in order as it drains; conch writes the next rows only once
 * nothing of the last write waits in its own queue, so a key's frame never queues behind more
 * than one write.
 */
export interface PacedOutput {
  /** Nothing written waits in conch's queue: the PTY has taken it all. */
  drained(): boolean;
  /**
   * Writes stop blocking the main thread (false), or block again (true) once what is queued has
   * gone out: the last rows of a backlog do not block either.
   */
  blocking(on: boolean): void;
}

/** How often a queue is checked for having gone out before writes block again. */
const DRAIN_POLL_MS = 10;

interface HandleOf {
  _handle?: { setBlocking?(blocking: boolean): number };
}

/** Pacing for `stream` when it is a terminal; for anything else (a test's stream) it never waits and changes nothing. */
export function pacedOutput(stream: NodeJS.WriteStream | undefined): PacedOutput {
  if (stream?.isTTY !== true) return { drained: () => true, blocking: () => {} };
  // Node makes a terminal's stdout blocking (tty.WriteStream); libuv opened the tty on its own
  // file description, so the flag does not reach the shell or an agent sharing the terminal.
  const handle = (stream as unknown as HandleOf)._handle;
  const drained = () => stream.writableLength === 0;
  /** What the handle is set to, and what was last asked. */
  let set = true;
  let wanted = true;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const apply = () => {
    retry = undefined;
    if (wanted === set || typeof handle?.setBlocking !== "function") return;
    if (wanted && !drained()) {
      retry = setTimeout(apply, DRAIN_POLL_MS);
      retry.unref();
      return;
    }
    set = wanted;
    handle.setBlocking(set);
  };
  return {
    drained,
    blocking(on) {
      wanted = on;
      if (retry === undefined) apply();
    },
  };
}
