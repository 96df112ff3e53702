// Runs conch's TUI in a real pseudo-terminal (node-pty) and reads the screen back through
// @xterm/headless, the way a person's terminal would show it. Timestamps are taken when the bytes
// arrive from the PTY (before our own parsing), so the emulator's cost is not charged to conch.
import { performance } from "node:perf_hooks";
import pty from "@lydell/node-pty";
import xterm from "@xterm/headless";
import { BIN } from "./common.mjs";

/**
 * What the TUI draws, in one place. The input line starts with the prompt `›` (`edit N ›` while
 * editing a queued message). Before Ink and the UI's modules are loaded, conch draws an "instant
 * prompt" (src/ui/app/instant-prompt.ts) that is the App's editor: keys typed then edit the buffer
 * the App's editor starts from, through the same key parsing, key map and reducer, and it draws the
 * rows of the App's own first frame (`⠋ starting <agent>…`, the `›` input, the status bar), so a
 * screen cannot tell the two apart and its echo counts as the editor's (test/ui/instant-editor.test.tsx
 * holds them equal, cell by cell). The App's first frame says "type away: messages wait until the
 * agent is ready" while the agent starts, and "message the agent" once the session is open and idle.
 *
 * Builds before 2026-11-26 drew a different instant prompt, `›  message the agent` over a status
 * line `<agent> · starting… · <cwd>`, that only echoed keys (Backspace, Enter) for the editor to
 * take later: `instantStatus` recognizes it, so the same bench does not count that echo.
 */
export const SCREEN = {
  prompt: /^\s*(?:edit \d+ )?›(?:\s|$)/,
  instantStatus: / · starting… · /,
  appStarting: /type away: messages wait/,
  readyPlaceholder: /›\s+message the agent/,
  /** A turn is on: its status line offers to cancel it, and the editor's placeholder queues. */
  busy: /\besc to cancel\b|›\s+queue a message/,
};

const any = (lines, re) => lines.some((l) => re.test(l));
/** Some input prompt is on the screen (the instant one or the App's). */
export const hasPrompt = (lines) => any(lines, SCREEN.prompt);
/** The App's editor is on screen (the App's, or the instant prompt that is it): a prompt, and no old-style instant status line. */
export const hasAppFrame = (lines) => hasPrompt(lines) && !any(lines, SCREEN.instantStatus);
/** The session is open and idle: the App's placeholder invites a message. */
export const isReady = (lines) => any(lines, SCREEN.readyPlaceholder) && !any(lines, SCREEN.instantStatus);
/** A turn is running (or waits for the user): its busy status line or placeholder is on screen. */
export const isBusy = (lines) => any(lines, SCREEN.busy);

export class TuiRun {
  constructor({ args, env, cwd, cols = 100, rows = 30, scrollback = 1000, command = process.execPath, commandArgs }) {
    this.cols = cols;
    this.rows = rows;
    this.term = new xterm.Terminal({ cols, rows, scrollback, allowProposedApi: true });
    this.waiters = [];
    /** When each read from the PTY arrived (ms since spawn), and its size in UTF-8 bytes. */
    this.writes = [];
    this.writeBytes = [];
    this.bytes = 0;
    this.exited = false;
    this.t0 = performance.now();
    this.proc = pty.spawn(command, commandArgs ?? [BIN, ...args], { name: "xterm-256color", cols, rows, cwd, env });
    this.pid = this.proc.pid;
    this.exit = new Promise((resolve) =>
      this.proc.onExit((e) => {
        this.exited = true;
        resolve(e);
      }),
    );
    // Answer the program's terminal queries (cursor position, device attributes) as a terminal does.
    this.term.onData((d) => {
      if (!this.exited) this.proc.write(d);
    });
    this.proc.onData((data) => {
      const t = performance.now() - this.t0;
      this.writes.push(t);
      const size = Buffer.byteLength(data);
      this.writeBytes.push(size);
      this.bytes += size;
      this.term.write(data, () => this.check(t));
    });
  }

  /** The visible rows as text. */
  lines() {
    const buf = this.term.buffer.active;
    const out = [];
    for (let y = 0; y < this.rows; y++) out.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? "");
    return out;
  }

  /** The whole buffer (scrollback included) as text. */
  allText() {
    const buf = this.term.buffer.active;
    const out = [];
    for (let y = 0; y < buf.length; y++) out.push(buf.getLine(y)?.translateToString(true) ?? "");
    return out.join("\n");
  }

  check(t) {
    if (!this.waiters.length) return;
    const lines = this.lines();
    this.waiters = this.waiters.filter((w) => {
      if (!w.test(lines, this)) return true;
      clearTimeout(w.timer);
      w.resolve(t);
      return false;
    });
  }

  /**
   * Resolves with the time (ms since spawn) at which the bytes arrived that made `test(lines)` true;
   * rejects after `timeoutMs` with the screen in the message.
   */
  waitFor(test, timeoutMs = 10_000, what = "screen condition") {
    const lines = this.lines();
    if (test(lines, this)) return Promise.resolve(performance.now() - this.t0);
    return new Promise((resolve, reject) => {
      const w = { test, resolve };
      w.timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; screen:\n${this.lines().join("\n")}`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  waitForLine(re, timeoutMs, what) {
    return this.waitFor((lines) => lines.some((l) => re.test(l)), timeoutMs, what ?? String(re));
  }

  /** Milliseconds since spawn. */
  now() {
    return performance.now() - this.t0;
  }

  write(data) {
    this.proc.write(data);
  }

  /** Stops conch the way a terminal closing would (SIGTERM, then SIGKILL), and waits for it. */
  async stop(timeoutMs = 5000) {
    if (!this.exited) {
      try {
        process.kill(this.pid, "SIGTERM");
      } catch {
        /* gone */
      }
      const t = setTimeout(() => {
        try {
          process.kill(this.pid, "SIGKILL");
        } catch {
          /* gone */
        }
      }, timeoutMs);
      await this.exit;
      clearTimeout(t);
    }
    // Conditions still awaited will never be met; their timers must not keep the bench alive.
    for (const w of this.waiters) clearTimeout(w.timer);
    this.waiters = [];
    this.term.dispose();
  }
}
