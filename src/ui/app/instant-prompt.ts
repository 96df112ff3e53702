import path from "node:path";
import { footer } from "../shell/key-bindings.js";
import { PASTE_END, PASTE_START } from "../tty/key-reads.js";

/** What the empty input says while the agent is idle (or starting, here). */
export const IDLE_PLACEHOLDER = `message the agent · ${footer(["slash-menu", "mention"])}`;

/** What the empty input says, by where the session is: failed, starting, busy (a message is queued) or idle. */
export function inputPlaceholder(phase: string, busy: boolean): string {
  if (phase === "failed") return "/restart to try again · /quit to leave";
  if (phase === "starting") return "type away: messages wait until the agent is ready";
  return busy ? "queue a message (sent when the turn ends)" : IDLE_PLACEHOLDER;
}

/** Lines the placeholder takes: a blank line, the prompt, the status bar. */
const LINES = 3;

/** Where the instant prompt draws: a terminal's output and its width. */
export interface PromptOutput {
  write(text: string): unknown;
  columns?: number;
}

/** The user's line as typed so far, how many messages Enter has queued, and whether a paste is open. */
export interface Echo {
  line: string;
  queued: number;
  inPaste: boolean;
}

/** Applies one read of kept keys to the echo: text, Backspace, Enter; other keys wait for the editor. */
export function echoRead(echo: Echo, read: string): Echo {
  let { line, queued, inPaste } = echo;
  for (const part of read.split(/(\x1b\[20[01]~)/)) {
    if (part === PASTE_START || part === PASTE_END) {
      inPaste = part === PASTE_START;
      continue;
    }
    for (const ch of part.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b./g, "")) {
      if (ch === "\x7f" || ch === "\b") line = [...line].slice(0, -1).join("");
      else if (ch === "\r" && !inPaste) {
        if (line.trim()) queued++;
        line = "";
      } else if (ch === "\r" || ch === "\n") line += "⏎";
      else if (ch >= " ") line += ch;
    }
  }
  return { line, queued, inPaste };
}

/** What the instant prompt calls the agent: a preset's name, or a command line's program (a long path would crowd out the rest). */
export function agentLabel(agent: string | undefined): string {
  if (!agent) return "conch";
  const program = agent.trim().split(/\s+/)[0] ?? agent;
  return /[\s/]/.test(agent.trim()) ? path.basename(program.replace(/^["']|["']$/g, "")) : agent;
}

/**
 * The input prompt drawn at once, before the UI's modules are loaded, while the agent starts. The
 * keys typed meanwhile are kept by `TerminalInput` and go to the editor once it is live; this only
 * shows them. `erase()` clears it just before the real UI draws over it.
 */
export class InstantPrompt {
  private echo: Echo = { line: "", queued: 0, inPaste: false };
  private erased = false;
  private readonly cwdShown: string;
  private readonly dim: (s: string) => string;

  constructor(
    private readonly out: PromptOutput,
    private readonly agent: string,
    cwd: string,
  ) {
    const home = process.env.HOME;
    this.cwdShown = home && (cwd === home || cwd.startsWith(`${home}${path.sep}`)) ? `~${cwd.slice(home.length)}` : cwd;
    this.dim = process.env.NO_COLOR ? (s) => s : (s) => `\x1b[2m${s}\x1b[22m`;
    out.write(`\n${this.promptLine()}\n${this.statusLine()}`);
  }

  /** Shows keys typed while conch starts. */
  show(reads: string[]): void {
    if (this.erased) return;
    for (const read of reads) this.echo = echoRead(this.echo, read);
    // Up to the prompt line, redraw it and the status line; the cursor ends where it was.
    this.out.write(`\r\x1b[1A\x1b[2K${this.promptLine()}\r\n\x1b[2K${this.statusLine()}`);
  }

  /** Clears the placeholder; the UI draws from its first line. */
  erase(): void {
    if (this.erased) return;
    this.erased = true;
    // Line by line, from the last up to the first, where the cursor stays. Not "clear to the end of
    // the screen": from the screen's top-left corner that clears the whole screen, which tmux (its
    // scroll-on-clear) and some terminals keep in the scrollback, above the transcript.
    this.out.write(`\r\x1b[2K${"\x1b[1A\x1b[2K".repeat(LINES - 1)}`);
  }

  private width(): number {
    return Math.max(20, (this.out.columns ?? 80) - 1);
  }

  private promptLine(): string {
    if (!this.echo.line) return `›  ${this.dim(IDLE_PLACEHOLDER)}`;
    const room = this.width() - 2;
    const chars = [...this.echo.line];
    return `› ${chars.length > room ? `…${chars.slice(chars.length - room + 1).join("")}` : this.echo.line}`;
  }

  private statusLine(): string {
    const queued = this.echo.queued ? ` · ${this.echo.queued} queued` : "";
    return this.dim(clip(`${this.agent} · starting…${queued} · ${this.cwdShown}`, this.width()));
  }
}

/** Cuts a line to the terminal's width, so it never wraps and the erase stays exact. */
function clip(text: string, width: number): string {
  const chars = [...text];
  return chars.length > width ? `${chars.slice(0, width - 1).join("")}…` : text;
}
