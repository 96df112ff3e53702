import type { AnsiCode, StyledChar } from "@alcalzone/ansi-tokenize";
import sliceAnsi from "slice-ansi";
import { cellWidth } from "./cell-width.js";
import { RecentCache } from "./recent-cache.js";
import { cellsString, styledChars, styledCharsString, writeNarrowLine, type Cells } from "./styled-chars.js";
import { isNarrowSgr } from "../../render/ascii-wrap.js";
import { widestLine } from "./text-measure.js";

/** What Ink's renderer hands each write: a line and its index in the text, styled (a `<Text color>`, `<Transform>`). */
type Transformer = (line: string, index: number) => string;

interface Clip {
  x1: number | undefined;
  x2: number | undefined;
  y1: number | undefined;
  y2: number | undefined;
}

type Operation =
  { type: "write"; x: number; y: number; text: string; transformers: Transformer[] } | { type: "clip"; clip: Clip } | { type: "unclip" };

/** What one row holds: the lines written into it, in order, each at its column. */
interface Piece {
  x: number;
  line: string;
}

/** Rows drawn lately, by what was written into them: a frame tokenizes only the rows that changed. */
const rowCache = new RecentCache<string>(2048);

/** An empty cell; only read, never changed, so every blank cell of a row can be this one. */
const BLANK: StyledChar = { type: "char", value: " ", fullWidth: false, styles: [] };

/**
 * Ink's `Output` (ink/build/output.js, which the bundle replaces with this: scripts/bundle.mjs),
 * giving the same string for the same writes, with one difference in cost: Ink builds a grid of
 * cells for the whole frame and tokenizes every row again each frame, about 3 ms of a frame for a
 * screenful of transcript. Here a row's text is a function of the width and what was written into
 * it (the lines, their columns, in order), so rows whose writes did not change since a recent
 * frame are taken as they were, and only a changed row is tokenized and laid out cell by cell,
 * by Ink's own steps.
 */
export default class Output {
  width: number;
  height: number;
  private readonly operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: "write", x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: "clip", clip });
  }

  unclip(): void {
    this.operations.push({ type: "unclip" });
  }

  get(): { output: string; height: number } {
    const rows: (Piece[] | undefined)[] = new Array<Piece[] | undefined>(this.height);
    const clips: Clip[] = [];
    for (const operation of this.operations) {
      if (operation.type === "clip") clips.push(operation.clip);
      else if (operation.type === "unclip") clips.pop();
      else this.place(operation, clips.at(-1), rows);
    }
    const out: string[] = new Array<string>(this.height);
    for (let y = 0; y < this.height; y++) {
      const pieces = rows[y];
      if (!pieces) {
        out[y] = "";
        continue;
      }
      let key = `${this.width}`;
      for (const piece of pieces) key += `\u0000${piece.x}\u0001${piece.line}`;
      out[y] = rowCache.get(key, () => drawRow(this.width, pieces));
    }
    return { output: out.join("\n"), height: this.height };
  }

  /** Ink's clipping and placing of one write, row by row, as pieces of the rows it reaches. */
  private place(operation: Extract<Operation, { type: "write" }>, clip: Clip | undefined, rows: (Piece[] | undefined)[]): void {
    const { text, transformers } = operation;
    let { x, y } = operation;
    let lines = text.split("\n");
    if (clip) {
      const clipHorizontally = typeof clip.x1 === "number" && typeof clip.x2 === "number";
      const clipVertically = typeof clip.y1 === "number" && typeof clip.y2 === "number";
      if (clipHorizontally) {
        const width = widestLine(text);
        if (x + width < clip.x1! || x > clip.x2!) return;
      }
      if (clipVertically) {
        if (y + lines.length < clip.y1! || y > clip.y2!) return;
      }
      if (clipHorizontally) {
        lines = lines.map((line) => {
          const from = x < clip.x1! ? clip.x1! - x : 0;
          const width = cellWidth(line);
          const to = x + width > clip.x2! ? clip.x2! - x : width;
          return sliceAnsi(line, from, to);
        });
        if (x < clip.x1!) x = clip.x1!;
      }
      if (clipVertically) {
        const from = y < clip.y1! ? clip.y1! - y : 0;
        const height = lines.length;
        const to = y + height > clip.y2! ? clip.y2! - y : height;
        lines = lines.slice(from, to);
        if (y < clip.y1!) y = clip.y1!;
      }
    }
    let offsetY = 0;
    for (let index = 0; index < lines.length; index++) {
      const row = y + offsetY;
      // As in Ink, a line with no row of the frame is dropped without moving to the next row.
      if (!(Number.isInteger(row) && row >= 0 && row < this.height)) continue;
      let line = lines[index];
      for (const transformer of transformers) line = transformer(line, index);
      (rows[row] ??= []).push({ x, line });
      offsetY++;
    }
  }
}

/** Printable ASCII and nothing else: one cell a character, no style (most of a streaming answer's rows). */
const PLAIN = /^[\x20-\x7e]*$/;

/** One row from its pieces, by Ink's steps: a row of blank cells, each piece's styled characters written over it at its column. */
function drawRow(width: number, pieces: Piece[]): string {
  // A plain line from the row's first cell: Ink's steps give the line itself, without trailing blanks.
  if (pieces.length === 1 && pieces[0].x === 0 && PLAIN.test(pieces[0].line)) return pieces[0].line.trimEnd();
  if (pieces.every((piece) => isNarrowSgr(piece.line))) return drawNarrowRow(width, pieces);
  const cells: (StyledChar | undefined)[] = new Array<StyledChar>(width).fill(BLANK);
  for (const { x, line } of pieces) {
    let offsetX = x;
    for (const character of styledChars(line)) {
      cells[offsetX] = character;
      const characterWidth = Math.max(1, cellWidth(character.value));
      // A wide character's second cell is empty, in the character's style.
      for (let i = 1; i < characterWidth; i++) cells[offsetX + i] = { type: "char", value: "", fullWidth: false, styles: character.styles };
      offsetX += characterWidth;
    }
  }
  return styledCharsString(cells.filter((cell): cell is StyledChar => cell !== undefined)).trimEnd();
}

/**
 * `drawRow` of pieces that are all narrow characters and SGR (a pane's rows inside their border):
 * every character one cell (what `cellWidth` gives each of them), the same cells and the same
 * string, without an object for each character.
 */
function drawNarrowRow(width: number, pieces: Piece[]): string {
  const cells: Cells = { values: new Array<string>(width).fill(BLANK.value), styles: new Array<AnsiCode[]>(width).fill(BLANK.styles) };
  for (const { x, line } of pieces) writeNarrowLine(line, x, cells);
  return cellsString(cells).trimEnd();
}
