/*
 * The one gate between text conch did not write (an agent's messages, titles, names, stderr, a
 * session title from disk) and the user's terminal. An escape sequence in such text could set the
 * clipboard (OSC 52), the window title (OSC 0), clear the screen, or move the cursor over what conch
 * drew; a stray control character can do much the same. A terminal pane is the exception: it shows
 * its emulator's screen model, never the bytes.
 */

// ESC followed by: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS/SOS/PM/APC (ESC P|X|^|_ … ST),
// or any other single character; and the 8-bit forms of CSI, OSC and the string introducers.

const SEQUENCE =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[PX^_][^\u001b\u009c]*(?:\u001b\\|\u009c)?|\u001b[^[\]PX^_]?|\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u009c]*(?:\u0007|\u009c)?|[\u0090\u0098\u009e\u009f][^\u009c]*\u009c?/g;

const SGR = /^\u001b\[[0-9;:]*m$/;
// C0 controls but tab and line feed, DEL, and the C1 range.

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Bidirectional overrides can make text read differently from what it is ("Trojan Source").
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** Shown where a sequence or control character was taken out, so the user sees that something was there. */
export const REMOVED_MARK = "␛";

/** Whether a string holds anything the gate would change (the common case is a fast no). */
function suspicious(text: string): boolean {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text);
}

/**
 * Text safe to print: every escape sequence and control character (but tab and line feed) taken
 * out, each sequence leaving a visible mark; `\r\n` becomes `\n`, a lone `\r` a line break.
 */
export function safeText(text: string): string {
  if (!suspicious(text)) return text;
  return text.replace(/\r\n?/g, "\n").replace(SEQUENCE, REMOVED_MARK).replace(CONTROL, REMOVED_MARK).replace(BIDI, "");
}

/**
 * Program output safe to print: colours and text attributes (SGR) are kept, every other sequence
 * and control character taken out, and a line overwritten with `\r` (a progress bar) shows as it
 * ended up.
 */
export function safeOutput(text: string): string {
  if (!suspicious(text)) return text;
  const flat = text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.slice(line.lastIndexOf("\r") + 1))
    .join("\n");
  let out = "";
  let at = 0;
  const plain = (part: string) => part.replace(CONTROL, REMOVED_MARK).replace(BIDI, "");
  for (const m of flat.matchAll(SEQUENCE)) {
    out += plain(flat.slice(at, m.index));
    if (SGR.test(m[0])) out += m[0];
    at = m.index + m[0].length;
  }
  return out + plain(flat.slice(at));
}

/** One line of text safe to print (a title, a name, a table cell): line breaks become spaces. */
export function safeLine(text: string): string {
  return safeText(text).replace(/\s*\n\s*/g, " ");
}

/**
 * Program output as plain text, for a reader that is not a terminal (a script reading JSON): a line
 * overwritten with `\r` as it ended up, every escape sequence and control character (but tab and
 * line feed) dropped without a mark, colours too.
 */
export function strippedOutput(text: string): string {
  if (!suspicious(text)) return text;
  return text
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.slice(line.lastIndexOf("\r") + 1))
    .join("\n")
    .replace(SEQUENCE, "")
    .replace(CONTROL, "")
    .replace(BIDI, "");
}
