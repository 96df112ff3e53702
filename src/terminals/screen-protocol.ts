import type { ScreenLine } from "./terminal-screen.js";

/** The rows of a scrolled window: `offset` rows up from the live bottom, `rows` high. */
export interface ScreenWindow {
  offset: number;
  rows: number;
}

/** What the main thread asks of the screen thread, per terminal `id`. */
export type ToScreenThread =
  | { type: "open"; id: number; cols: number; rows: number; scrollback: number; tailRows: number }
  /**
   * Output, the PTY's bytes (its buffer transferred, not copied), whose text is `chars` UTF-16 units,
   * the unit the parsed counts come back in. Bytes, not a string: the message is not copied on its
   * way and the thread's heap never holds a flood's text. A character may be split between two
   * messages (xterm's decoder joins it); bytes that are not UTF-8 come as the text shows them (U+FFFD).
   */
  | { type: "write"; id: number; data: Uint8Array; chars: number }
  | { type: "resize"; id: number; cols: number; rows: number }
  /** Which rows the frames carry: the last `tailRows`, the first `headRows`, and `window` when a view is scrolled. */
  | { type: "view"; id: number; tailRows: number; headRows: number; window: ScreenWindow | null }
  /** Answer `flushed` once everything written before it is parsed (and its frame sent). */
  | { type: "flush"; id: number; seq: number }
  | { type: "text"; id: number; seq: number }
  | { type: "close"; id: number };

/** The screen as of one frame: what a view needs without asking again. */
export interface ScreenFrame {
  type: "frame";
  id: number;
  cols: number;
  rows: number;
  /** Rows of scrollback above the visible ones. */
  baseY: number;
  bufferType: "normal" | "alternate";
  cursorX: number;
  cursorY: number;
  /** The last rows up to the last one with content (see `SnapshotOptions.tail`), at most the asked `tailRows`. */
  tail: ScreenLine[];
  /** The first rows of the buffer, at most the asked `headRows` (none unless asked). */
  head: ScreenLine[];
  /** Rows from the top of the buffer through the last one with content. */
  contentRows: number;
  /** The asked window's rows, when one was asked. */
  window: (ScreenWindow & { lines: ScreenLine[] }) | null;
}

/** What the screen thread tells the main thread. */
export type FromScreenThread =
  | ScreenFrame
  /** `chars` UTF-16 units of output were parsed (backpressure for the PTY). */
  | { type: "parsed"; id: number; chars: number }
  /** The emulator's answer to a query in the output (cursor position, device attributes): it goes back to the program. */
  | { type: "reply"; id: number; data: string }
  | { type: "flushed"; id: number; seq: number }
  | { type: "text"; id: number; seq: number; text: string };
