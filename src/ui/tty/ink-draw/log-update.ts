import ansiEscapes from "ansi-escapes";
import cliCursor from "cli-cursor";
import type { Writable } from "node:stream";
import { cellWidth } from "./cell-width.js";

/** Where Ink's `useCursor` puts the terminal's cursor, in the frame's cells. */
interface CursorPosition {
  x: number;
  y: number;
}

/** Ink's log-update interface (ink/build/log-update.js): writes each frame over the last one. */
export interface LogUpdate {
  (str: string): boolean;
  clear(): void;
  done(): void;
  sync(str: string): void;
  setCursorPosition(position: CursorPosition | undefined): void;
  isCursorDirty(): boolean;
  willRender(str: string): boolean;
}

type Screen = Writable & { columns?: number; rows?: number };

const SHOW_CURSOR = "\u001B[?25h";
const HIDE_CURSOR = "\u001B[?25l";

const moved = (a: CursorPosition | undefined, b: CursorPosition | undefined) => a?.x !== b?.x || a?.y !== b?.y;

/** From the bottom of the frame (column 0 under its last row) to the cursor's cell, shown. */
function cursorSuffix(visibleLines: number, cursor: CursorPosition | undefined): string {
  if (!cursor) return "";
  const up = visibleLines - cursor.y;
  return (up > 0 ? ansiEscapes.cursorUp(up) : "") + ansiEscapes.cursorTo(cursor.x) + SHOW_CURSOR;
}

/** From the cursor's cell back to the bottom of the frame. */
function returnToBottom(lineCount: number, cursor: CursorPosition | undefined): string {
  if (!cursor) return "";
  const down = lineCount - 1 - cursor.y;
  return (down > 0 ? ansiEscapes.cursorDown(down) : "") + ansiEscapes.cursorTo(0);
}

const visibleCount = (lines: string[], str: string) => (str.endsWith("\n") ? lines.length - 1 : lines.length);

/**
 * Only the rows that changed, from `before` to `after` (two frames that end with a line break, so
 * the cursor is at column 0 under the frame): up to the first changed row, each changed row written
 * over the old one and the rest of it erased, unchanged rows stepped over, rows the new frame no
 * longer has erased. A row that fills the width is not followed by an erase: the cursor waits on
 * its last cell, and an erase there would take that cell (why Ink's own incremental mode was not
 * used). Undefined when the frames do not fit the screen: the whole frame is written then.
 */
export function rowDiff(before: string, after: string, columns: number, rows: number): string | undefined {
  const old = before.split("\n");
  const now = after.split("\n");
  old.pop();
  now.pop();
  if (Math.max(old.length, now.length) >= rows) return undefined;
  let first = 0;
  while (first < old.length && first < now.length && old[first] === now[first]) first++;
  let out = "\r" + (first < old.length ? ansiEscapes.cursorUp(old.length - first) : "");
  let down = 0;
  for (let i = first; i < now.length; i++) {
    if (i < old.length && now[i] === old[i]) {
      down++;
      continue;
    }
    if (down > 0) out += ansiEscapes.cursorDown(down);
    down = 0;
    out += now[i] + (cellWidth(now[i]) >= columns ? "" : ansiEscapes.eraseEndLine) + "\n";
  }
  if (down > 0) out += ansiEscapes.cursorDown(down);
  if (now.length < old.length) out += ansiEscapes.eraseDown;
  return out;
}

/**
 * Ink's standard log-update (the bundle puts this in its place: scripts/bundle.mjs), which erases
 * the whole last frame and writes the new one, every frame: here a frame writes only its changed
 * rows (`rowDiff`). Everything else is Ink's: the first frame, a cursor a component placed, a
 * frame that does not end with a line break, `clear` before text goes to the scrollback.
 */
function create(stream: Screen, { showCursor = false }: { showCursor?: boolean; incremental?: boolean } = {}): LogUpdate {
  let previousLineCount = 0;
  let previousOutput = "";
  let hasHiddenCursor = false;
  let cursorPosition: CursorPosition | undefined;
  let cursorDirty = false;
  let previousCursorPosition: CursorPosition | undefined;
  let cursorWasShown = false;
  const activeCursor = () => (cursorDirty ? cursorPosition : undefined);
  const hasChanges = (str: string, cursor: CursorPosition | undefined) => str !== previousOutput || moved(cursor, previousCursorPosition);
  const returnPrefix = () => (cursorWasShown ? HIDE_CURSOR + returnToBottom(previousLineCount, previousCursorPosition) : "");

  const render = ((str: string): boolean => {
    if (!showCursor && !hasHiddenCursor) {
      cliCursor.hide(stream);
      hasHiddenCursor = true;
    }
    const cursor = activeCursor();
    cursorDirty = false;
    const cursorChanged = moved(cursor, previousCursorPosition);
    if (!hasChanges(str, cursor)) return false;
    const lines = str.split("\n");
    const visible = visibleCount(lines, str);
    if (str === previousOutput && cursorChanged) {
      const hide = cursorWasShown ? HIDE_CURSOR : "";
      stream.write(hide + returnToBottom(previousLineCount, previousCursorPosition) + cursorSuffix(visible, cursor));
    } else {
      const plain = !cursor && !cursorWasShown && previousOutput.endsWith("\n") && str.endsWith("\n");
      const diff = plain && stream.columns && stream.rows ? rowDiff(previousOutput, str, stream.columns, stream.rows) : undefined;
      stream.write(diff ?? returnPrefix() + ansiEscapes.eraseLines(previousLineCount) + str + cursorSuffix(visible, cursor));
      previousOutput = str;
      previousLineCount = lines.length;
    }
    previousCursorPosition = cursor ? { ...cursor } : undefined;
    cursorWasShown = cursor !== undefined;
    return true;
  }) as LogUpdate;

  render.clear = () => {
    stream.write(returnPrefix() + ansiEscapes.eraseLines(previousLineCount));
    previousOutput = "";
    previousLineCount = 0;
    previousCursorPosition = undefined;
    cursorWasShown = false;
  };
  render.done = () => {
    previousOutput = "";
    previousLineCount = 0;
    previousCursorPosition = undefined;
    cursorWasShown = false;
    if (!showCursor) {
      cliCursor.show(stream);
      hasHiddenCursor = false;
    }
  };
  render.sync = (str: string) => {
    const cursor = activeCursor();
    cursorDirty = false;
    const lines = str.split("\n");
    previousOutput = str;
    previousLineCount = lines.length;
    if (!cursor && cursorWasShown) stream.write(HIDE_CURSOR);
    if (cursor) stream.write(cursorSuffix(visibleCount(lines, str), cursor));
    previousCursorPosition = cursor ? { ...cursor } : undefined;
    cursorWasShown = cursor !== undefined;
  };
  render.setCursorPosition = (position) => {
    cursorPosition = position;
    cursorDirty = true;
  };
  render.isCursorDirty = () => cursorDirty;
  render.willRender = (str: string) => hasChanges(str, activeCursor());
  return render;
}

/** As Ink's module: `logUpdate.create(stream, options)`. */
const logUpdate = { create };
export default logUpdate;
