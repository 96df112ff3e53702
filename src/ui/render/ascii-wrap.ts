// wrap-ansi's word wrap (hard, trim: false, wordWrap: true), for text whose visible characters are
// all printable ASCII and whose escapes are all SGR colour sequences: most of what a transcript
// draws. The result is the same, character for character (a test compares them on a corpus), but
// a word's width is its length less its escapes, where wrap-ansi segments every word and runs an
// emoji regex on each character: that was most of the time a long resumed transcript took to draw.

/** Printable ASCII, line breaks and SGR sequences (as ansi-regex reads them), nothing else. */
const ASCII_SGR = /^(?:[\x20-\x7e\n]|\u001b\[(?:\d{1,4}(?:;\d{0,4})*)?m)*$/;
const SGR = /\u001b\[(?:\d{1,4}(?:;\d{0,4})*)?m/g;
const ESC = "\u001b";

/** ansi-styles' `codes` (the one wrap-ansi uses): an opening SGR code → the code that closes it. */
const CLOSING = new Map<number, number>([
  [0, 0],
  [1, 22],
  [2, 22],
  [3, 23],
  [4, 24],
  [53, 55],
  [7, 27],
  [8, 28],
  [9, 29],
  ...[30, 31, 32, 33, 34, 35, 36, 37, 90, 91, 92, 93, 94, 95, 96, 97].map((c): [number, number] => [c, 39]),
  ...[40, 41, 42, 43, 44, 45, 46, 47, 100, 101, 102, 103, 104, 105, 106, 107].map((c): [number, number] => [c, 49]),
]);

/** Cells a string takes: its length less its SGR sequences. */
function visibleLength(s: string): number {
  return s.includes(ESC) ? s.replace(SGR, "").length : s.length;
}

/**
 * `text` as rows of at most `width` cells, exactly as `wrapAnsi(text, width, { hard: true, trim:
 * false, wordWrap: true }).split("\n")`; undefined when the text is not ASCII and SGR only (wide
 * characters, emoji, links, other escapes), for wrap-ansi to do.
 */
export function wrapAscii(text: string, width: number): string[] | undefined {
  if (!ASCII_SGR.test(text)) return undefined;
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const wrapped = wrapLine(line, width);
    if (wrapped.length === 1) out.push(wrapped[0]);
    else out.push(...carryStyles(wrapped.join("\n")).split("\n"));
  }
  return out;
}

/** Printable ASCII, line breaks and SGR only: what `wrapAscii` wraps (a line no longer than the width, escapes included, is one row of itself). */
export function isAsciiSgr(line: string): boolean {
  return ASCII_SGR.test(line);
}

/** wrap-ansi's `exec` before its styles pass: one line's words into rows. */
function wrapLine(line: string, columns: number): string[] {
  const rows = [""];
  let rowLength = 0;
  const words = line.split(" ");
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    const length = visibleLength(word);
    if (index !== 0) {
      if (rowLength >= columns) {
        rows.push("");
        rowLength = 0;
      }
      rows[rows.length - 1] += " ";
      rowLength++;
    }
    if (length > columns) {
      const remaining = columns - rowLength;
      const breaksStartingThisLine = 1 + Math.floor((length - remaining - 1) / columns);
      const breaksStartingNextLine = Math.floor((length - 1) / columns);
      if (breaksStartingNextLine < breaksStartingThisLine) rows.push("");
      wrapWord(rows, word, columns);
      rowLength = visibleLength(rows[rows.length - 1]);
      continue;
    }
    if (rowLength + length > columns && rowLength > 0 && length > 0) {
      rows.push("");
      rowLength = 0;
    }
    rows[rows.length - 1] += word;
    rowLength += length;
  }
  return rows;
}

/** wrap-ansi's `wrapWord`: a word longer than a row, cut across rows; escapes take no cells. */
function wrapWord(rows: string[], word: string, columns: number): void {
  let inEscape = false;
  let visible = visibleLength(rows[rows.length - 1]);
  for (let index = 0; index < word.length; index++) {
    const ch = word[index];
    const cells = ch === ESC ? 0 : 1;
    if (visible + cells <= columns) rows[rows.length - 1] += ch;
    else {
      rows.push(ch);
      visible = 0;
    }
    if (ch === ESC) inEscape = true;
    if (inEscape) {
      if (ch === "m") inEscape = false;
      continue;
    }
    visible += cells;
    if (visible === columns && index < word.length - 1) {
      rows.push("");
      visible = 0;
    }
  }
  // The last row may hold only escapes: they go back onto the row before.
  if (!visible && rows[rows.length - 1].length > 0 && rows.length > 1) rows[rows.length - 2] += rows.pop();
}

/**
 * wrap-ansi's styles pass over one wrapped line: the last single SGR code seen (searched for from
 * each escape on, as wrap-ansi does) is closed before each break and opened again after it.
 */
function carryStyles(pre: string): string {
  if (!pre.includes(ESC)) return pre;
  const search = /\[(\d+)m/g;
  let out = "";
  // Text up to `from` is in `out`: characters are copied in runs, not one at a time.
  let from = 0;
  let code: number | undefined;
  for (let i = 0; i < pre.length; i++) {
    const ch = pre[i];
    const beforeBreak = pre[i + 1] === "\n";
    // Only an escape, a break, or the character before a break can add anything.
    if (ch !== ESC && ch !== "\n" && !beforeBreak) continue;
    out += pre.slice(from, i + 1);
    from = i + 1;
    if (ch === ESC) {
      search.lastIndex = i;
      const m = search.exec(pre);
      if (m) {
        const n = Number.parseFloat(m[1]);
        code = n === 39 ? undefined : n;
      }
    }
    const closing = code === undefined ? undefined : CLOSING.get(code);
    if (beforeBreak) {
      if (code && closing) out += `${ESC}[${closing}m`;
    } else if (ch === "\n") {
      if (code && closing) out += `${ESC}[${code}m`;
    }
  }
  return out + pre.slice(from);
}

/**
 * Narrow characters and SGR sequences. Narrow: characters string-width counts as one cell, each
 * its own grapheme: printable ASCII, and the punctuation, arrows, maths, box drawing, shapes,
 * braille (spinners) and dingbats a transcript draws with (`›`, `•`, `·`, `…`, `⋮`, `─`, `◦`, `✓`,
 * `⠋`), less those it counts as emoji (wide). A test checks every character of these ranges
 * against string-width.
 */
const NARROW_SGR =
  /^(?:[\x20-\x7e\u00b7\u2010-\u2027\u2030-\u205e\u2190-\u22ff\u2500-\u25fc\u25ff\u2700-\u2704\u2706-\u2709\u270c-\u2727\u2729-\u274b\u274d\u274f-\u2752\u2756\u2758-\u2794\u2798-\u27af\u27b1-\u27be\u2800-\u28ff]|\u001b\[(?:\d{1,4}(?:;\d{0,4})*)?m)*$/;

/** Cells a one-line string takes when it is narrow characters and SGR only (as string-width counts); else undefined. */
export function narrowWidth(text: string): number | undefined {
  return NARROW_SGR.test(text) ? visibleLength(text) : undefined;
}

/** Whether `text` is narrow characters (each one UTF-16 unit and its own grapheme) and SGR sequences only. */
export function isNarrowSgr(text: string): boolean {
  return NARROW_SGR.test(text);
}
