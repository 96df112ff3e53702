import type { SessionPort } from "../session-port.js";

/** Sends the queued messages now although the previous turn is still draining (the user detaches). */
export function detachWithQueued(port: SessionPort): boolean {
  const { state } = port;
  if (state.phase !== "draining" || state.queue.length === 0) return false;
  port.detach();
  return true;
}
