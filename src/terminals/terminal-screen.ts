import { createRequire } from "node:module";
import type * as XTermModule from "@xterm/headless";
import type { IBuffer, IBufferCell, IBufferLine, IModes, Terminal as XTerm } from "@xterm/headless";
import { ListenerSet, type Unsubscribe } from "./listener-set.js";
import type { ScreenView } from "./terminal.js";

/** A colour: a palette index (0-255) or an RGB `#rrggbb` string; absent means the default colour. */
export type ScreenColor = number | `#${string}`;

/** A run of adjacent cells that share one style. Flags are present only when set. */
interface ScreenSegment {
  text: string;
  fg?: ScreenColor;
  bg?: ScreenColor;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

/** One screen row as styled segments, trailing blank cells trimmed (an empty row is `[]`). */
export type ScreenLine = ScreenSegment[];

/** Which rows `snapshot` returns. With no option set: the live visible rows. */
export interface SnapshotOptions {
  /**
   * Compact view: the last `tail` rows of the whole buffer (scrollback included), ending at the last
   * line of output (the last one a newline ended counts, blank or not). The empty rows below it are
   * dropped so a short command does not show as a mostly empty pane; blank lines it printed are kept.
   */
  tail?: number;
  /**
   * Head view: the first `head` rows of the buffer (scrollback included), never past the last row
   * with content: with `tail`, what a finished command's pane shows of a long output.
   */
  head?: number;
  /** Scrolled view: how many rows up from the live bottom the window ends (0 = live). Clamped to the scrollback. */
  scrollOffset?: number;
  /** Height of the scrolled window; defaults to the terminal's rows. */
  rows?: number;
}

/** How the emulator is set up. */
export interface TerminalScreenOptions {
  cols?: number;
  rows?: number;
  /** Lines kept above the visible rows; bounds memory for long-running commands. */
  scrollback?: number;
  /**
   * Treat `\n` as `\r\n`. Needed for output that did not pass through a PTY line discipline (agents'
   * display terminals send plain `"tick\n"`), which would otherwise staircase.
   */
  convertEol?: boolean;
}

export const DEFAULT_COLS = 80;
export const DEFAULT_ROWS = 24;
export const DEFAULT_SCROLLBACK = 10_000;

/** Loads modules from node_modules at run time (the bundle does not hold them). */
const loadModule = createRequire(import.meta.url);
let emulator: typeof XTermModule | undefined;

/**
 * The emulator's library, loaded on the first terminal: no session needs it to start, and it is
 * CommonJS, so a synchronous require keeps `new TerminalScreen()` synchronous.
 */
function xterm(): typeof XTermModule {
  emulator ??= loadModule("@xterm/headless") as typeof XTermModule;
  return emulator;
}

/** A headless terminal emulator and the styled rows it shows; the model behind a live PTY pane. */
export class TerminalScreen implements ScreenView {
  private readonly term: XTerm;
  private readonly replies = new ListenerSet<string>();
  private disposed = false;

  constructor(options: TerminalScreenOptions = {}) {
    this.term = new (xterm().Terminal)({
      cols: positiveInt(options.cols, DEFAULT_COLS),
      rows: positiveInt(options.rows, DEFAULT_ROWS),
      scrollback: Math.max(0, Math.floor(options.scrollback ?? DEFAULT_SCROLLBACK)),
      convertEol: options.convertEol ?? false,
      allowProposedApi: true,
    });
    this.term.onData((data) => this.replies.emit(data));
  }

  /** Feeds output to the emulator; `onParsed` runs once xterm has processed it (it parses in chunks, later). */
  write(data: string | Uint8Array, onParsed?: () => void): void {
    if (this.disposed) {
      onParsed?.();
      return;
    }
    this.term.write(data, onParsed);
  }

  /** Resolves once everything written so far has been parsed, so the rows reflect it. */
  flush(): Promise<void> {
    return new Promise((resolve) => this.write("", resolve));
  }

  /** Changes the grid size; xterm reflows the normal buffer. */
  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    this.term.resize(positiveInt(cols, this.term.cols), positiveInt(rows, this.term.rows));
  }

  /**
   * Listens to what the emulator answers to queries in the output (cursor position, device
   * attributes). A PTY owner writes these back, or programs that ask can hang waiting.
   */
  onReply(listener: (data: string) => void): Unsubscribe {
    return this.replies.add(listener);
  }

  /** Width in cells. */
  get cols(): number {
    return this.term.cols;
  }

  /** Height of the visible screen in rows. */
  get rows(): number {
    return this.term.rows;
  }

  /** `alternate` while a full-screen program (vim, less, htop) owns the screen; it has no scrollback. */
  get bufferType(): "normal" | "alternate" {
    return this.term.buffer.active.type;
  }

  /** Rows above the visible ones: the largest useful `scrollOffset`. */
  get scrollbackRows(): number {
    return this.term.buffer.active.baseY;
  }

  /** Rows from the top of the buffer through the last line of output (0 when nothing shows). */
  get contentRows(): number {
    return lastOutputRow(this.term.buffer.active) + 1;
  }

  /** Cursor position within the visible rows (0-based). */
  get cursor(): { x: number; y: number } {
    const buffer = this.term.buffer.active;
    return { x: buffer.cursorX, y: buffer.cursorY };
  }

  /** Input modes the program asked for; typing into the pane must honour them (e.g. application cursor keys). */
  get modes(): IModes {
    return this.term.modes;
  }

  /** The rows to draw, as styled segments. See {@link SnapshotOptions}. */
  snapshot(options: SnapshotOptions = {}): ScreenLine[] {
    const buffer = this.term.buffer.active;
    let start: number;
    let end: number;
    if (options.head !== undefined) {
      start = 0;
      end = Math.min(lastOutputRow(buffer) + 1, Math.max(0, Math.floor(options.head)));
    } else if (options.tail !== undefined) {
      end = lastOutputRow(buffer) + 1;
      start = Math.max(0, end - Math.max(0, Math.floor(options.tail)));
    } else {
      const offset = Math.min(buffer.baseY, Math.max(0, Math.floor(options.scrollOffset ?? 0)));
      const height = positiveInt(options.rows, this.term.rows);
      end = buffer.length - offset;
      start = Math.max(0, end - height);
    }
    const cell = buffer.getNullCell();
    const lines: ScreenLine[] = [];
    for (let y = start; y < end; y++) {
      const line = buffer.getLine(y);
      lines.push(line ? readLine(line, cell) : []);
    }
    return lines;
  }

  /**
   * The whole buffer (scrollback and visible rows) as text: soft-wrapped rows joined, trailing
   * spaces and trailing empty rows dropped. For tests and `--print`.
   */
  plainText(): string {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let y = 0; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      if (!line) continue;
      // Keep the spaces at the end of a row that wraps on: they sit in the middle of the logical line.
      const wrapsOn = buffer.getLine(y + 1)?.isWrapped ?? false;
      const text = line.translateToString(!wrapsOn);
      if (line.isWrapped && out.length > 0) out[out.length - 1] += text;
      else out.push(text);
    }
    while (out.length > 0 && out[out.length - 1].trimEnd() === "") out.pop();
    return out.map((row) => row.trimEnd()).join("\n");
  }

  /** Frees the emulator; later writes are ignored. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.replies.clear();
    this.term.dispose();
  }
}

function readLine(line: IBufferLine, cell: IBufferCell): ScreenLine {
  const end = contentEnd(line, cell);
  const segments: ScreenSegment[] = [];
  let current: ScreenSegment | undefined;
  for (let x = 0; x < end; x++) {
    line.getCell(x, cell);
    // Width 0 is the right half of a wide character, already emitted with its left half.
    if (cell.getWidth() === 0) continue;
    let text = cell.getChars() || " ";
    if (cell.isInvisible()) text = " ".repeat(cell.getWidth());
    if (current && sameStyle(current, cell)) {
      current.text += text;
    } else {
      current = styledSegment(text, cell);
      segments.push(current);
    }
  }
  return segments;
}

/** Index after the last cell that shows anything: a glyph, a background, inverse video or an underline. */
function contentEnd(line: IBufferLine, cell: IBufferCell): number {
  for (let x = line.length - 1; x >= 0; x--) {
    line.getCell(x, cell);
    const chars = cell.getChars();
    const glyph = chars !== "" && chars !== " " && !cell.isInvisible();
    if (glyph || !cell.isBgDefault() || cell.isInverse() || cell.isUnderline()) return x + 1;
  }
  return 0;
}

/** The last row with content, or the last a newline ended if lower (`"tick\n\n\n"` is `tick` and two blank lines). */
function lastOutputRow(buffer: IBuffer): number {
  const cell = buffer.getNullCell();
  // On the alternate buffer a full-screen program puts its cursor anywhere.
  const ended = buffer.type === "normal" ? buffer.baseY + buffer.cursorY - 1 : -1;
  for (let y = buffer.length - 1; y > ended; y--) {
    const line = buffer.getLine(y);
    if (line && contentEnd(line, cell) > 0) return y;
  }
  return ended;
}

function styledSegment(text: string, cell: IBufferCell): ScreenSegment {
  const segment: ScreenSegment = { text };
  const fg = fgColor(cell);
  const bg = bgColor(cell);
  if (fg !== undefined) segment.fg = fg;
  if (bg !== undefined) segment.bg = bg;
  if (cell.isBold()) segment.bold = true;
  if (cell.isDim()) segment.dim = true;
  if (cell.isItalic()) segment.italic = true;
  if (cell.isUnderline()) segment.underline = true;
  if (cell.isInverse()) segment.inverse = true;
  return segment;
}

function sameStyle(segment: ScreenSegment, cell: IBufferCell): boolean {
  return (
    segment.fg === fgColor(cell) &&
    segment.bg === bgColor(cell) &&
    (segment.bold ?? false) === (cell.isBold() !== 0) &&
    (segment.dim ?? false) === (cell.isDim() !== 0) &&
    (segment.italic ?? false) === (cell.isItalic() !== 0) &&
    (segment.underline ?? false) === (cell.isUnderline() !== 0) &&
    (segment.inverse ?? false) === (cell.isInverse() !== 0)
  );
}

function fgColor(cell: IBufferCell): ScreenColor | undefined {
  if (cell.isFgRGB()) return rgbHex(cell.getFgColor());
  if (cell.isFgPalette()) return cell.getFgColor();
  return undefined;
}

function bgColor(cell: IBufferCell): ScreenColor | undefined {
  if (cell.isBgRGB()) return rgbHex(cell.getBgColor());
  if (cell.isBgPalette()) return cell.getBgColor();
  return undefined;
}

function rgbHex(value: number): `#${string}` {
  return `#${value.toString(16).padStart(6, "0")}`;
}

/** `value` floored when it is a number of at least 1, else `fallback`: how a grid size is read. */
export function positiveInt(value: number | undefined, fallback: number): number {
  if (value === undefined || !Number.isFinite(value) || value < 1) return fallback;
  return Math.floor(value);
}
