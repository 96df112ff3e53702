import type { Key } from "ink";
import { isKittySequence } from "./key-reads.js";

/**
 * The bytes a program in a terminal expects for one key press. Legacy key bytes pass through
 * untouched (they are exactly what a terminal would send); keys the terminal reported in the kitty
 * protocol are translated back from Ink's key event, because programs in the pane did not ask for it.
 */
export function ptyBytesFor(input: string, key: Key, raw: string): string {
  if (raw && !isKittySequence(raw)) return raw;
  if (key.return) return "\r";
  if (key.tab) return key.shift ? "\x1b[Z" : "\t";
  if (key.backspace || key.delete) return raw.startsWith("\x1b[3") ? "\x1b[3~" : "\x7f";
  if (key.escape) return "\x1b";
  if (key.upArrow) return "\x1b[A";
  if (key.downArrow) return "\x1b[B";
  if (key.rightArrow) return "\x1b[C";
  if (key.leftArrow) return "\x1b[D";
  if (key.home) return "\x1b[H";
  if (key.end) return "\x1b[F";
  if (key.pageUp) return "\x1b[5~";
  if (key.pageDown) return "\x1b[6~";
  if (key.ctrl && input.length === 1) {
    const code = input.toLowerCase().charCodeAt(0);
    if (code >= 97 && code <= 122) return String.fromCharCode(code - 96);
    if (input === " " || input === "@") return "\x00";
    if (input === "[") return "\x1b";
    if (input === "\\") return "\x1c";
    if (input === "]") return "\x1d";
  }
  if (key.meta && input) return `\x1b${input}`;
  return input;
}
