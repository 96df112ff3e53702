import type { ScreenColor } from "../../terminals/terminal-screen.js";

/** The 16 ANSI palette slots as Ink colour names, so the user's terminal theme applies. */
const ANSI_16 = [
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "blackBright",
  "redBright",
  "greenBright",
  "yellowBright",
  "blueBright",
  "magentaBright",
  "cyanBright",
  "whiteBright",
];

/** Maps a screen colour to a colour string Ink understands; undefined keeps the default colour. */
export function inkColor(value: ScreenColor | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string") return /^#[0-9a-fA-F]{6}$/.test(value) ? value : undefined;
  if (!Number.isInteger(value) || value < 0 || value > 255) return undefined;
  return value < 16 ? ANSI_16[value] : `ansi256(${value})`;
}
