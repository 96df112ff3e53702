import { execFileSync } from "node:child_process";
import { join } from "node:path";
import xterm from "@xterm/headless";
import * as pty from "@lydell/node-pty";
import { isCiMarker } from "../support/ci-markers.js";

/** How the program under test is started. */
export interface ScreenOptions {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  cols?: number;
  rows?: number;
  /**
   * Behave like tmux (its `scroll-on-clear`, on by default) and terminals that keep a cleared screen:
   * clearing from the top-left corner to the end moves the screen into the scrollback first.
   */
  scrollOnClear?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A program in a real PTY, its output fed to a headless xterm: tests read what a person would see
 * (the screen and its scrollback), not the raw bytes, which cannot tell a redrawn line from a new one.
 */
export class Screen {
  readonly term: InstanceType<typeof xterm.Terminal>;
  readonly proc: pty.IPty;
  exitCode: number | null = null;
  readonly exited: Promise<number>;
  /** Bells rung (BEL outside an escape sequence). */
  bells = 0;
  /** Desktop notifications asked for with OSC 9. */
  readonly notifications: string[] = [];
  /** Window titles set (OSC 0/2) and clipboard writes asked for (OSC 52): a hostile agent's favourites. */
  readonly titles: string[] = [];
  readonly clipboard: string[] = [];
  /** Every byte the program wrote, as text. */
  raw = "";
  /** With `scrollOnClear`: the rows a clear of the whole screen moved into the scrollback, in order. */
  readonly clearedIntoHistory: string[] = [];

  constructor(opts: ScreenOptions) {
    const cols = opts.cols ?? 100;
    const rows = opts.rows ?? 30;
    this.term = new xterm.Terminal({ cols, rows, scrollback: 10_000, allowProposedApi: true });
    this.proc = pty.spawn(opts.command, opts.args, {
      name: "xterm-256color",
      cols,
      rows,
      cwd: opts.cwd,
      env: opts.env as Record<string, string>,
    });
    this.proc.onData((data) => {
      this.raw += data;
      this.term.write(data);
    });
    this.term.onBell(() => this.bells++);
    this.term.onTitleChange((title) => this.titles.push(title));
    this.term.parser.registerOscHandler(52, (text) => {
      this.clipboard.push(text);
      return true;
    });
    this.term.parser.registerOscHandler(9, (text) => {
      this.notifications.push(text);
      return true;
    });
    if (opts.scrollOnClear) {
      this.term.parser.registerCsiHandler({ final: "J" }, (params) => {
        const buffer = this.term.buffer.active;
        if ((params[0] ?? 0) !== 0 || buffer.cursorX !== 0 || buffer.cursorY !== 0) return false;
        const rows: string[] = [];
        for (let y = 0; y < this.term.rows; y++) rows.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
        while (rows.length > 0 && rows[rows.length - 1] === "") rows.pop();
        this.clearedIntoHistory.push(...rows);
        return false;
      });
    }
    // Answer what the program asks the terminal (cursor position, device attributes), as a terminal would.
    this.term.onData((data) => this.proc.write(data));
    this.exited = new Promise((resolve) => {
      this.proc.onExit(({ exitCode }) => {
        this.exitCode = exitCode;
        resolve(exitCode);
      });
    });
  }

  /** Resolves once xterm has parsed everything received so far. */
  settle(): Promise<void> {
    return new Promise((resolve) => this.term.write("", resolve));
  }

  /** Every line of the buffer, scrollback included, trailing spaces trimmed. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < buffer.length; i++) out.push(buffer.getLine(i)?.translateToString(true) ?? "");
    return out;
  }

  /** The whole buffer as text. */
  text(): string {
    return this.lines().join("\n");
  }

  /** Only the rows on screen now. */
  visible(): string {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < this.term.rows; i++) out.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? "");
    return out.join("\n");
  }

  /** Waits until the buffer (or with `visible`, the screen) shows `text`; fails with the screen in the message. */
  async waitForText(text: string | RegExp, timeoutMs = 10_000, where: "buffer" | "visible" = "buffer"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const found = () => {
      const haystack = where === "visible" ? this.visible() : this.text();
      return typeof text === "string" ? haystack.includes(text) : text.test(haystack);
    };
    for (;;) {
      await this.settle();
      if (found()) return;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${String(text)}; the screen shows:\n${this.visible()}`);
      await sleep(40);
    }
  }

  /** Waits until `text` is gone from the screen. */
  async waitForGone(text: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.settle();
      if (!this.visible().includes(text)) return;
      if (Date.now() > deadline)
        throw new Error(`timed out after ${timeoutMs} ms waiting for "${text}" to go; the screen shows:\n${this.visible()}`);
      await sleep(40);
    }
  }

  /** Types text, then waits a moment so the next key is its own read (as a person's Enter would be). */
  async type(text: string): Promise<void> {
    this.proc.write(text);
    await sleep(60);
  }

  /** Types a line and presses Enter. */
  async submit(text: string): Promise<void> {
    await this.type(text);
    await this.type("\r");
  }

  /** Resizes the terminal, as a person dragging its window does: the emulator first, then the PTY (the program's SIGWINCH). */
  resize(cols: number, rows: number): void {
    this.term.resize(cols, rows);
    this.proc.resize(cols, rows);
  }

  /** Every process below ours, found through ps. */
  descendants(): number[] {
    const all = new Set<number>();
    const walk = (pid: number) => {
      let out = "";
      try {
        out = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" });
      } catch {
        return;
      }
      for (const line of out.split("\n")) {
        const child = Number(line.trim());
        if (child && !all.has(child)) {
          all.add(child);
          walk(child);
        }
      }
    };
    walk(this.proc.pid);
    return [...all];
  }

  /**
   * Kills the program, its process group and every process below it, if it still runs. A SIGKILL
   * gives conch no chance to stop its agent, and an agent in its own session that ignores the end of
   * its stdin (the hostile ones) would outlive the test run.
   */
  async kill(): Promise<void> {
    if (this.exitCode !== null) return;
    const below = this.descendants();
    try {
      process.kill(-this.proc.pid, "SIGKILL");
    } catch {
      this.proc.kill("SIGKILL");
    }
    for (const pid of below) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await Promise.race([this.exited, sleep(2000)]);
  }
}

/** Whether a process id is still alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The environment of a person's terminal: no CI markers (Ink draws differently in CI), private state dirs, a fast demo. */
export function terminalEnv(stateDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (isCiMarker(k) || k === "NO_COLOR") continue;
    env[k] = v;
  }
  return {
    ...env,
    TERM: "xterm-256color",
    CONCH_STATE_DIR: stateDir,
    XDG_STATE_HOME: stateDir,
    CONCH_DEMO_STATE: join(stateDir, "demo"),
    CONCH_DEMO_DELAY_MS: "0",
    CONCH_DEMO_BACKGROUND_MS: "800",
  };
}
