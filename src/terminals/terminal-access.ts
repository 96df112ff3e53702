import type { Unsubscribe } from "./listener-set.js";
import type { Terminal } from "./terminal.js";

/**
 * What a view needs of a session's terminals: a terminal's screen to draw, typing into a client
 * PTY, and word that a screen changed (output is parsed off the state's clock, so a pane must be
 * redrawn on its own signal). The session's terminal service is one.
 */
export interface TerminalAccess {
  /** Any terminal the session knows, by id, released ones included (their screens stay). */
  get(id: string): Terminal | undefined;
  /** Types into a client terminal while its command runs; anything else is ignored. */
  write(id: string, data: string): void;
  /** Calls `fn` when a terminal's screen changed, exited or went away; returns the unsubscribe. */
  onScreenChange(fn: () => void): Unsubscribe;
}
