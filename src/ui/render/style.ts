import { colorsEnabled, roleColor, type ColorRole } from "./theme.js";

/** How a run of text looks. Colours are roles (or a terminal's own colour, for screens); NO_COLOR drops them, not the rest. */
export interface Style {
  role?: ColorRole;
  /** A literal colour: a palette name ("red", "blueBright"), `ansi256(n)`, or `#rrggbb`. */
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  inverse?: boolean;
}

/** 0: no colour; 1: 16 colours; 2: 256; 3: truecolor. */
export type ColorLevel = 0 | 1 | 2 | 3;

/** What the terminal on stdout can show, decided the way Ink's own colouring does (FORCE_COLOR, a TTY, TERM, COLORTERM). */
function detectLevel(env: NodeJS.ProcessEnv = process.env, tty = process.stdout.isTTY === true): ColorLevel {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") {
    if (force === "false" || force === "0") return 0;
    const n = Number(force);
    return (Number.isInteger(n) && n >= 1 && n <= 3 ? n : 1) as ColorLevel;
  }
  if (!tty || env.TERM === "dumb") return 0;
  if (env.COLORTERM === "truecolor" || env.COLORTERM === "24bit") return 3;
  if (/-256(color)?$/i.test(env.TERM ?? "")) return 2;
  return 1;
}

let level: ColorLevel = detectLevel();

/** The colour level rows are drawn at (0: plain text, no attributes either). */
export function colorLevel(): ColorLevel {
  return level;
}

/** Sets the colour level (tests, and `--color` style overrides); returns the previous one. */
export function setColorLevel(next: ColorLevel): ColorLevel {
  const prev = level;
  level = next;
  return prev;
}

const PALETTE = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"];

/** SGR parameters for a colour, at the current level; undefined when it cannot be shown. */
function colorCode(value: string, background: boolean): string | undefined {
  const base = background ? 40 : 30;
  const idx = PALETTE.indexOf(value.replace(/Bright$/, ""));
  if (idx >= 0) return String((value.endsWith("Bright") ? base + 60 : base) + idx);
  if (value === "gray" || value === "grey") return String(base + 60);
  const ext = background ? 48 : 38;
  const n = /^ansi256\((\d+)\)$/.exec(value);
  if (n) {
    const code = Number(n[1]);
    if (level >= 2) return `${ext};5;${code}`;
    return code < 16 ? String((code < 8 ? base : base + 60) + (code % 8)) : undefined;
  }
  const hex = /^#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})$/.exec(value);
  if (hex) {
    const [r, g, b] = hex.slice(1).map((h) => parseInt(h, 16));
    if (level >= 3) return `${ext};2;${r};${g};${b}`;
    if (level === 2) return `${ext};5;${16 + 36 * Math.round((r / 255) * 5) + 6 * Math.round((g / 255) * 5) + Math.round((b / 255) * 5)}`;
    return undefined;
  }
  return undefined;
}

/** SGR parameters per colour at `codesLevel`: a transcript paints the same few colours hundreds of thousands of times. */
const codes = { fg: new Map<string, string | undefined>(), bg: new Map<string, string | undefined>(), level };

function cachedColorCode(value: string, background: boolean): string | undefined {
  if (codes.level !== level) {
    codes.fg.clear();
    codes.bg.clear();
    codes.level = level;
  }
  const kept = background ? codes.bg : codes.fg;
  let code = kept.get(value);
  if (code === undefined && !kept.has(value)) kept.set(value, (code = colorCode(value, background)));
  return code;
}

/** Close codes after which an enclosing style must be opened again. */
const INNER_CLOSE = /\u001b\[(22|23|24|27|29|39|49)m/g;

/** Each attribute in the order Ink opens them: the style's key, its SGR code, the code that closes it. */
const ATTRIBUTES = [
  ["bold", "1", "22"],
  ["dim", "2", "22"],
  ["italic", "3", "23"],
  ["underline", "4", "24"],
  ["inverse", "7", "27"],
  ["strike", "9", "29"],
] as const;

/** Text in a style, as ANSI: the same colours and attributes an Ink `<Text>` would draw. */
export function paint(text: string, style: Style): string {
  if (text === "") return "";
  const colors = level > 0 && colorsEnabled();
  const fg = colors ? (style.role ? roleColor(style.role) : style.fg) : undefined;
  const fgCode = fg ? cachedColorCode(fg, false) : undefined;
  const bgCode = colors && style.bg ? cachedColorCode(style.bg, true) : undefined;
  // The SGR parameters to open and to close, each after a ";" (built as strings: this runs for
  // every styled span of a transcript).
  let on = "";
  let off = "";
  if (fgCode) {
    on += `;${fgCode}`;
    off += ";39";
  }
  if (bgCode) {
    on += `;${bgCode}`;
    off += ";49";
  }
  // Attributes need no colour support, but a stream that is not a terminal gets plain text.
  if (level > 0)
    for (const [key, code, close] of ATTRIBUTES)
      if (style[key]) {
        on += `;${code}`;
        off += `;${close}`;
      }
  if (on === "") return text;
  const start = `\u001b[${on.slice(1)}m`;
  const end = `\u001b[${off.slice(1)}m`;
  // Styles nest: an inner run's close codes would end the outer style, so it is opened again after them.
  const body = text.includes("\u001b") ? text.replace(INNER_CLOSE, (m) => m + start) : text;
  // A style never runs over a line break: rows are cut at breaks and must each close what they open.
  if (!body.includes("\n")) return start + body + end;
  return body
    .split("\n")
    .map((line) => (line === "" ? "" : start + line + end))
    .join("\n");
}

/** Shorthands for the styles used most. */
export const dim = (text: string): string => paint(text, { dim: true });
export const bold = (text: string): string => paint(text, { bold: true });
export const role = (r: ColorRole, text: string, extra: Omit<Style, "role"> = {}): string => paint(text, { ...extra, role: r });
