import type { Unsubscribe } from "./listener-set.js";
import type { ScreenLine, SnapshotOptions } from "./terminal-screen.js";

/** How a command ended. Matches ACP `TerminalExitStatus` / `WaitForTerminalExitResponse`. */
export interface ExitStatus {
  /** Null when the command was ended by a signal, or when an agent did not say. */
  exitCode: number | null;
  /** Signal name such as "SIGTERM", or null. */
  signal: string | null;
}

/**
 * The rows a finished client command's screen keeps for its views (a head and a tail; the middle
 * is counted): what a pane can show of it once it is history. Views show at most these.
 */
export const KEPT_AFTER_EXIT = { head: 200, tail: 500 } as const;

/** What a view reads of a terminal's screen: its size and its rows. */
export interface ScreenView {
  /** Width in cells. */
  readonly cols: number;
  /** Height of the visible screen in rows. */
  readonly rows: number;
  /** Rows from the top of the buffer (scrollback included) through the last one with content. */
  readonly contentRows: number;
  /** The rows to draw, as styled segments. See {@link SnapshotOptions}. */
  snapshot(options?: SnapshotOptions): ScreenLine[];
}

/** `client`: a PTY conch runs for `terminal/create`. `display`: an agent-owned terminal shown from `_meta`. */
type TerminalKind = "client" | "display";

/** What the UI and the orchestrator see of either kind of terminal. */
export interface Terminal {
  readonly id: string;
  readonly kind: TerminalKind;
  /** Working directory, when known. */
  readonly cwd: string | null;
  /** What the pane shows; it stays readable after exit and release. */
  readonly screen: ScreenView;
  /** Null while the command runs (or, for a display terminal, until the agent reports an exit). */
  readonly exitStatus: ExitStatus | null;
  /**
   * Output or an exit reached the terminal and its screen does not show it yet (the emulator parses
   * later, or on another thread): a view that draws it once for good waits until this is false.
   */
  readonly parsing: boolean;
  /** Resizes the screen (and the PTY, for a client terminal). */
  resize(cols: number, rows: number): void;
  /** Raw output, in pieces; a client terminal tells each piece with the frame of its screen that shows it. */
  onOutput(listener: (data: string) => void): Unsubscribe;
  /** Fires once; by then the screen has parsed all output. */
  onExit(listener: (status: ExitStatus) => void): Unsubscribe;
  /** The screen parsed new output. Fires often: consumers throttle their redraws. */
  onScreenChange(listener: () => void): Unsubscribe;
}
