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

/**
 * `styledCharsFromTokens(tokenize(line))` of ansi-tokenize, the same characters in the same styles,
 * for less: a row of narrow characters and SGR (`isNarrowSgr`, a pane's coloured rows) is split by
 * hand, a character a grapheme as the grapheme segmenter splits it, each sequence tokenized once
 * and kept; and the characters between two sequences share one styles array, which nothing
 * changes, instead of a copy each. (A char's `fullWidth` is not read by the drawing: widths come
 * from `cellWidth`.)
 */
export function styledChars(line: string): StyledChar[] {
  const tokens = isNarrowSgr(line) ? narrowTokens(line) : tokenize(line);
  let codes: AnsiCode[] = [];
  const chars: StyledChar[] = [];
  for (const token of tokens) {
    if (token.type === "ansi") codes = reduceAnsiCodesIncremental(codes, [token]);
    else chars.push({ type: "char", value: token.value, fullWidth: token.fullWidth, styles: codes });
  }
  return chars;
}

function narrowTokens(line: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < line.length) {
    if (line.charCodeAt(i) === 0x1b) {
      const end = line.indexOf("m", i) + 1;
      const sequence = line.slice(i, end);
      tokens.push(...sequences.get(sequence, tokenize));
      i = end;
    } else {
      tokens.push({ type: "char", value: line[i], fullWidth: false });
      i++;
    }
  }
  return tokens;
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
    if (i === 0) out += ansiCodesToString(char.styles);
    else if (chars[i - 1].styles !== char.styles) out += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));
    out += char.value;
    if (i === chars.length - 1) out += ansiCodesToString(diffAnsiCodes(char.styles, []));
  }
  return out;
}
