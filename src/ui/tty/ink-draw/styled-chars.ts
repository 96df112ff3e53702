import {
  ansiCodesToString,
  diffAnsiCodes,
  reduceAnsiCodesIncremental,
  tokenize,
  type AnsiCode,
  type StyledChar,
  type Token,
} from "@alcalzone/ansi-tokenize";
import { isNarrowSgr } from "../../render/ascii-wrap.js";
import { RecentCache } from "./recent-cache.js";

/** The tokens of one SGR sequence, as `tokenize` gives them: a row's few colours recur on every row. */
const sequences = new RecentCache<Token[]>(512);

/** The styles before a row's first code; never changed, like every styles array here. */
const NO_STYLES: AnsiCode[] = [];

/**
 * A styles array and one more code → the styles after it (`reduceAnsiCodesIncremental`), kept
 * while both are alive. A row's codes come from `sequences`, so the same few colours give the same
 * arrays row after row, and the codes between two styles (below) are worked out once, not for every
 * change of colour on every row of every frame: that work was most of drawing a flooding pane, and
 * most of what V8 compiled during the flood.
 */
const afterCode = new WeakMap<AnsiCode[], WeakMap<AnsiCode, AnsiCode[]>>();
/** The codes from one styles array to another (`ansiCodesToString(diffAnsiCodes(from, to))`). */
const between = new WeakMap<AnsiCode[], WeakMap<AnsiCode[], string>>();
/** The codes that open a styles array (`ansiCodesToString(styles)`). */
const opening = new WeakMap<AnsiCode[], string>();

function withCode(codes: AnsiCode[], code: AnsiCode): AnsiCode[] {
  let next = afterCode.get(codes);
  if (!next) afterCode.set(codes, (next = new WeakMap()));
  let styles = next.get(code);
  if (!styles) next.set(code, (styles = reduceAnsiCodesIncremental(codes, [code])));
  return styles;
}

function codesBetween(from: AnsiCode[], to: AnsiCode[]): string {
  let next = between.get(from);
  if (!next) between.set(from, (next = new WeakMap()));
  let codes = next.get(to);
  if (codes === undefined) next.set(to, (codes = ansiCodesToString(diffAnsiCodes(from, to))));
  return codes;
}

function codesOpening(styles: AnsiCode[]): string {
  let codes = opening.get(styles);
  if (codes === undefined) opening.set(styles, (codes = ansiCodesToString(styles)));
  return codes;
}

/**
 * `styledCharsFromTokens(tokenize(line))` of ansi-tokenize, the same characters in the same styles,
 * for less: the characters between two codes share one styles array, which nothing changes,
 * instead of a copy each. (A char's `fullWidth` is not read by the drawing: widths come from
 * `cellWidth`.) A narrow line (`isNarrowSgr`) is split by hand (`writeNarrowLine`), and a row of
 * narrow lines is drawn without these objects at all.
 */
export function styledChars(line: string): StyledChar[] {
  if (isNarrowSgr(line)) {
    const cells: Cells = { values: [], styles: [] };
    writeNarrowLine(line, 0, cells);
    return cells.values.map((value, i) => ({ type: "char", value, fullWidth: false, styles: cells.styles[i] }));
  }
  let codes = NO_STYLES;
  const chars: StyledChar[] = [];
  for (const token of tokenize(line)) {
    if (token.type === "ansi") codes = withCode(codes, token);
    else chars.push({ type: "char", value: token.value, fullWidth: token.fullWidth, styles: codes });
  }
  return chars;
}

/**
 * The cells of a row, as two lists: each cell's character and its styles. A row of narrow lines
 * is drawn into these instead of a `StyledChar` for every character of every row of every frame.
 */
export interface Cells {
  values: string[];
  styles: AnsiCode[][];
}

/**
 * Writes a line that `isNarrowSgr` accepts into `cells` from column `x` on, as Ink writes its
 * `styledChars`: one cell a character (each its own grapheme, one cell wide), each SGR sequence
 * tokenized once and kept. A column that is not one of the row's (negative, or not a whole
 * number) is dropped, as Ink's array drops it.
 */
export function writeNarrowLine(line: string, x: number, cells: Cells): void {
  let codes = NO_STYLES;
  let at = x;
  const put = (value: string): void => {
    if (Number.isInteger(at) && at >= 0) {
      cells.values[at] = value;
      cells.styles[at] = codes;
    }
    at++;
  };
  let i = 0;
  while (i < line.length) {
    if (line.charCodeAt(i) === 0x1b) {
      const end = line.indexOf("m", i) + 1;
      for (const token of sequences.get(line.slice(i, end), tokenize)) {
        if (token.type === "ansi") codes = withCode(codes, token);
        else put(token.value);
      }
      i = end;
    } else {
      put(line[i]);
      i++;
    }
  }
}

/** `styledCharsString` of the cells written (a column never written, past the row's end, is no cell). */
export function cellsString(cells: Cells): string {
  const { values, styles } = cells;
  let out = "";
  let last: AnsiCode[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    const style = styles[i];
    if (last === undefined) out += codesOpening(style);
    else if (last !== style) out += codesBetween(last, style);
    out += value;
    last = style;
  }
  return last === undefined ? out : out + codesBetween(last, NO_STYLES);
}

/**
 * `styledCharsToString` of ansi-tokenize: the codes to go from each character's style to the next
 * one's, and to end the last; none between two characters that share a styles array (the diff of a
 * style with itself is empty), which is most of a row.
 */
export function styledCharsString(chars: StyledChar[]): string {
  let out = "";
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (i === 0) out += codesOpening(char.styles);
    else if (chars[i - 1].styles !== char.styles) out += codesBetween(chars[i - 1].styles, char.styles);
    out += char.value;
    if (i === chars.length - 1) out += codesBetween(char.styles, NO_STYLES);
  }
  return out;
}
