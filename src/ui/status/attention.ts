import type { SessionState } from "../../session/state.js";
import { isBusy } from "./status-text.js";

/** A turn shorter than this ends without a bell: the user is probably still looking. */
export const ATTENTION_AFTER_MS = 5000;

/** What the attention watcher remembers between state changes. */
export interface AttentionMemory {
  /** Wall-clock time the current busy period began, or null when idle. */
  busySince: number | null;
  /** Permission keys already announced. */
  announced: ReadonlySet<string>;
}

export const INITIAL_ATTENTION: AttentionMemory = { busySince: null, announced: new Set() };

/**
 * Decides whether a state change deserves the user's attention: a turn that took a while ended,
 * or a permission is waiting in a turn that already took a while. Pure; returns the message to
 * show in the notification, if any.
 */
export function attentionStep(
  memory: AttentionMemory,
  state: SessionState,
  now: number,
  afterMs = ATTENTION_AFTER_MS,
): { memory: AttentionMemory; message?: string } {
  const busy = isBusy(state) && state.phase !== "replaying";
  let message: string | undefined;
  let busySince = memory.busySince;
  if (busy && busySince === null) busySince = now;
  const long = busySince !== null && now - busySince >= afterMs;

  const keys = new Set(state.permissions.map((p) => p.key));
  const fresh = state.permissions.filter((p) => !memory.announced.has(p.key));
  if (fresh.length && long) {
    message = `permission needed: ${fresh[0].request.toolCall.title ?? fresh[0].toolCallId}`;
  }
  if (!busy && busySince !== null) {
    if (long) message = state.phase === "failed" ? `the agent failed: ${state.failure?.message ?? "see conch"}` : "the agent finished";
    busySince = null;
  }
  return { memory: { busySince, announced: keys }, message };
}

/** The bytes that ring the bell and post a desktop notification (OSC 9, understood by iTerm2, kitty, WezTerm, …). */
export function attentionBytes(message: string): string {
  const clean = message.replace(/[\x00-\x1f\x7f]/g, " ").slice(0, 200);
  return `\x07\x1b]9;conch: ${clean}\x07`;
}
