import type { SessionPort } from "../session-port.js";

/** Ctrl-D on an empty input: the session's `detach` (turn-driver.ts), when a turn drains and a message waits; true when it did. */
export function detachWithQueued(port: SessionPort): boolean {
  const { state } = port;
  if (state.phase !== "draining" || state.queue.length === 0) return false;
  port.detach();
  return true;
}
