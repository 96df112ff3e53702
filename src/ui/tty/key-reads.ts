/** Bracketed-paste markers: what the terminal sends around a paste once asked with `ESC [?2004h`. */
export const PASTE_START = "\x1b[200~";
export const PASTE_END = "\x1b[201~";

/** Kitty's CSI-u encoding: the raw bytes say nothing legacy programs understand. */
export const KITTY = /^\x1b\[\d+(?:;\d+(?::\d+)?)?(?:;[\d:]+)?u$/;

/** A kitty-keyboard query's answer (`ESC [ ? flags u`): the terminal's reply, never a key. */
const KITTY_REPLY = /^\x1b\[\?\d*u/;
/** The start of a kitty reply or a paste marker that a read may have cut in two. */
const INCOMPLETE_TAIL = /^\x1b(?:\[(?:\?\d*|2|20[01]?)?)?$/;

/**
 * The length of the key at `i` when it is a control character or an escape sequence (CSI, SS3, or
 * ESC before a character: Alt and that key), else 0 (text).
 */
function keyLength(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code !== 0x1b) return code < 0x20 || code === 0x7f ? 1 : 0;
  const next = text[i + 1];
  if (next === undefined || next === "\x1b") return 1;
  if (next === "O" && i + 2 < text.length) return 3;
  if (next !== "[") return 2;
  let j = i + 2;
  while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x3f) j++;
  // The final byte (0x40-0x7e); a sequence a read cut short is passed on as it is.
  return j < text.length ? j + 1 - i : text.length - i;
}

/** What one read from the terminal held, as the editor must be given it. */
export interface KeyReads {
  /** The keys, cut into the reads the editor takes one at a time: each unmarked CR (Enter) ends one. */
  reads: string[];
  /** Ctrl-C was typed (outside a paste) while conch starts: the user wants out; what followed is dropped. */
  interrupted: boolean;
  /** The terminal answered the kitty-keyboard query (the answer is not in `reads`). */
  kittyAnswered: boolean;
}

/**
 * Cuts what the terminal delivers into the reads the editor would have had, one per Enter.
 *
 * When conch is busy (loading, or drawing a big frame), the terminal's buffer fills and one read
 * can hold `hello⏎world⏎`. The editor takes several characters with a CR in one read as typing
 * whose earlier CRs are line breaks, which would make two messages one. Bracketed paste is on from
 * conch's first millisecond, so a paste comes between markers and every CR outside them is an Enter
 * the user pressed: each ends a read of its own. Pastes stay whole.
 *
 * While conch starts (`starting`), a marker or kitty reply cut in two by a read is put back
 * together (nothing waits on those keys yet), and Ctrl-C means quit. Afterwards a read is passed
 * on at once: an Escape at its end must not wait for the next key.
 */
export class KeyReadSplitter {
  private inPaste = false;
  private carry = "";

  /** Splits one chunk read from the terminal. */
  push(chunk: string, opts: { starting: boolean }): KeyReads {
    const text = this.carry + chunk;
    this.carry = "";
    const reads: string[] = [];
    let kittyAnswered = false;
    let current = "";
    let i = 0;
    while (i < text.length) {
      if (text.startsWith(PASTE_START, i)) {
        this.inPaste = true;
        current += PASTE_START;
        i += PASTE_START.length;
        continue;
      }
      if (text.startsWith(PASTE_END, i)) {
        this.inPaste = false;
        current += PASTE_END;
        i += PASTE_END.length;
        continue;
      }
      const ch = text[i];
      if (ch === "\x1b") {
        const reply = KITTY_REPLY.exec(text.slice(i, i + 16));
        if (reply) {
          kittyAnswered = true;
          i += reply[0].length;
          continue;
        }
        const tail = text.slice(i);
        if (opts.starting && INCOMPLETE_TAIL.test(tail)) {
          this.carry = tail;
          break;
        }
      }
      if (opts.starting && !this.inPaste && ch === "\x03") {
        if (current) reads.push(current);
        return { reads, interrupted: true, kittyAnswered };
      }
      // A control key or an escape sequence is a key of its own: in one read with text ("n", Ctrl-U,
      // "o" typed while conch was busy) the editor would take it all for typed text.
      const key = this.inPaste || ch === "\r" ? 0 : keyLength(text, i);
      if (key > 0) {
        if (current) reads.push(current);
        reads.push(text.slice(i, i + key));
        current = "";
        i += key;
        continue;
      }
      current += ch;
      i++;
      if (!this.inPaste && ch === "\r") {
        reads.push(current);
        current = "";
      }
    }
    if (current) reads.push(current);
    return { reads, interrupted: false, kittyAnswered };
  }

  /** What a read left unfinished while starting (a lone ESC, say): handed over as typed when the editor goes live. */
  flush(): string[] {
    const rest = this.carry;
    this.carry = "";
    return rest ? [rest] : [];
  }
}

/** True when `raw` is a kitty-protocol key report rather than legacy bytes. */
export function isKittySequence(raw: string): boolean {
  return KITTY.test(raw) || /^\x1b\[\d+;\d+:\d+[A-Za-z~]$/.test(raw);
}
