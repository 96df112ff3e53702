import type { SessionEvent } from "../../session/events.js";

type TerminalOutput = Extract<SessionEvent, { type: "terminal_output" }>;

/** Output of one terminal logged as it comes: the command's start, and any ordinary command whole. */
export const LOGGED_HEAD_CHARS = 256 * 1024;
/**
 * Past the head, only the last this-many characters are kept for the log: more than a screen plus
 * its scrollback needs, since a resumed session shows the last screen, not every byte.
 */
export const LOGGED_TAIL_CHARS = 1024 * 1024;
/** While a flood goes on, its tail is written after this long, then after twice as long, and so on. */
const FIRST_TAIL_FLUSH_MS = 10_000;
const MAX_TAIL_FLUSH_MS = 3_600_000;
/** How far into a cut tail a line start is looked for. */
const LINE_START_SEARCH = 4096;

interface Budget {
  logged: number;
  /** The held tail, in arrival order; `heldLength` characters in all, trimmed from the front. */
  held: string[];
  heldLength: number;
  /** Characters dropped from `held` since it was last written. */
  dropped: number;
  heldAt: number;
  flushEveryMs: number;
  nextFlushAt: number;
}

/**
 * Decides which terminal output reaches the session log, so a command printing 190 MB writes
 * about 1 MB: the first {@link LOGGED_HEAD_CHARS} pass as they come; after that output is held,
 * only its last {@link LOGGED_TAIL_CHARS} kept, and written (after a marker saying how much was
 * left out) when the terminal exits, at turn boundaries, and now and then while the flood lasts,
 * so a crash loses at most the last stretch. The events keep their shape; what the live session
 * shows is untouched, as only the log is thinned.
 */
export class TerminalOutputBudget {
  private terminals = new Map<string, Budget>();

  /** The events to log now for `ev`: itself, its head part, or nothing (held). */
  admit(ev: TerminalOutput): TerminalOutput[] {
    let b = this.terminals.get(ev.terminalId);
    if (!b) {
      b = {
        logged: 0,
        held: [],
        heldLength: 0,
        dropped: 0,
        heldAt: ev.at,
        flushEveryMs: FIRST_TAIL_FLUSH_MS,
        nextFlushAt: ev.at + FIRST_TAIL_FLUSH_MS,
      };
      this.terminals.set(ev.terminalId, b);
    }
    const room = Math.max(0, LOGGED_HEAD_CHARS - b.logged);
    if (b.heldLength === 0 && ev.data.length <= room) {
      b.logged += ev.data.length;
      return [ev];
    }
    const out: TerminalOutput[] = [];
    const head = b.heldLength === 0 ? ev.data.slice(0, room) : "";
    if (head) {
      b.logged += head.length;
      out.push({ ...ev, data: head });
    }
    this.hold(b, ev.data.slice(head.length));
    b.heldAt = ev.at;
    if (ev.at >= b.nextFlushAt) {
      out.push(...this.release(ev.terminalId));
      b.flushEveryMs = Math.min(b.flushEveryMs * 2, MAX_TAIL_FLUSH_MS);
      b.nextFlushAt = ev.at + b.flushEveryMs;
    }
    return out;
  }

  /** Adds to the held tail, dropping whole chunks (then part of one) from its front past the cap. */
  private hold(b: Budget, data: string): void {
    if (!data) return;
    b.held.push(data);
    b.heldLength += data.length;
    while (b.heldLength - b.held[0].length >= LOGGED_TAIL_CHARS) {
      const first = b.held.shift()!;
      b.heldLength -= first.length;
      b.dropped += first.length;
    }
    if (b.heldLength > LOGGED_TAIL_CHARS) {
      const cut = b.heldLength - LOGGED_TAIL_CHARS;
      b.held[0] = b.held[0].slice(cut);
      b.heldLength -= cut;
      b.dropped += cut;
    }
  }

  /** The held tail of one terminal (or of all), to log now; the budget then starts holding afresh. */
  release(terminalId?: string): TerminalOutput[] {
    const ids = terminalId === undefined ? [...this.terminals.keys()] : [terminalId];
    const out: TerminalOutput[] = [];
    for (const id of ids) {
      const b = this.terminals.get(id);
      if (!b || b.heldLength === 0) continue;
      let held = b.held.join("");
      if (b.dropped > 0) {
        // Start the kept tail at a line, not inside the escape sequence the cut fell in.
        const nl = held.indexOf("\n");
        if (nl >= 0 && nl < LINE_START_SEARCH) {
          b.dropped += nl + 1;
          held = held.slice(nl + 1);
        }
      }
      const marker = b.dropped > 0 ? `\r\n[conch: ${b.dropped} characters of this output were not kept in the session log]\r\n` : "";
      out.push({ type: "terminal_output", at: b.heldAt, terminalId: id, data: marker + held });
      b.logged += marker.length + held.length;
      b.held = [];
      b.heldLength = 0;
      b.dropped = 0;
    }
    return out;
  }
}
