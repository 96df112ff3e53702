import path from "node:path";
import { footer } from "../shell/key-bindings.js";
import { shortPath } from "../status/bar-fit.js";
import type { BarSegment } from "../status/session-facts.js";
import type { EditorState } from "../editor/editor-state.js";
import { chromeRows, editorFits, type ChromeView } from "./instant-frame.js";
import { InstantEditor } from "./instant-editor.js";

/** What the empty input says while the agent is idle (or starting, here). */
export const IDLE_PLACEHOLDER = `message the agent · ${footer(["slash-menu", "mention"])}`;

/** What the empty input says, by where the session is: failed, starting, busy (a message is queued) or idle. */
export function inputPlaceholder(phase: string, busy: boolean): string {
  if (phase === "failed") return "/restart to try again · /quit to leave";
  if (phase === "starting") return "type away: messages wait until the agent is ready";
  return busy ? "queue a message (sent when the turn ends)" : IDLE_PLACEHOLDER;
}

/** Where the instant prompt draws: a terminal's output and its size. */
export interface PromptOutput {
  write(text: string): unknown;
  columns?: number;
  rows?: number;
}

/** What the chrome shows of a session: computed with the App's own functions (instant-session.ts). */
export type SessionChrome = Pick<ChromeView, "status" | "placeholder" | "queue" | "waitsFor" | "bar" | "modeHint">;

/** The session, once it is built: where Enter sends, and what the chrome shows of it now. */
export interface InstantSession {
  send(text: string): void;
  chrome(): SessionChrome;
}

/** What the App takes over from the instant prompt: its editor, and the bytes that clear the prompt, for its first frame. */
export interface Handoff {
  editor: EditorState;
  erase: string;
}

/** What the instant prompt calls the agent: a preset's name, or a command line's program (a long path would crowd out the rest). */
export function agentLabel(agent: string | undefined): string {
  if (!agent) return "conch";
  const program = agent.trim().split(/\s+/)[0] ?? agent;
  return /[\s/]/.test(agent.trim()) ? path.basename(program.replace(/^["']|["']$/g, "")) : agent;
}

const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";
/** The App's spinners move every 100 ms; so does this one. */
const TICK_MS = 100;

/**
 * The App's editor and chrome, drawn at once, before Ink and the UI's modules are loaded, while the
 * agent starts: keys typed now edit the same buffer the App's editor then starts from
 * (`InstantEditor`), and every row is drawn as the App's first frame draws it (`chromeRows`), so the
 * App takes over without a visible seam. Keys it leaves to the App are kept by `TerminalInput` and go
 * to the App in order once it is up.
 */
export class InstantPrompt {
  private readonly editor: InstantEditor;
  /** Sent before the session was built: they go to it the moment it is. */
  private unsent: string[] = [];
  private session?: InstantSession;
  /** Rows drawn under the blank first line; the cursor is at the end of the last. */
  private rows = 0;
  private over = false;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly out: PromptOutput,
    private readonly agent: string,
    private readonly cwd: string,
  ) {
    this.editor = new InstantEditor(
      (editor) => editorFits(editor, this.out.columns ?? 80, this.out.rows ?? 24),
      (text) => (this.session ? this.session.send(text) : this.unsent.push(text)),
    );
    // The App draws its own cursor; the terminal's would sit after the status bar.
    out.write(`${HIDE_CURSOR}\n`);
    this.draw();
    this.timer = setInterval(() => this.draw(), TICK_MS);
    this.timer.unref();
  }

  /** Takes keys typed while conch starts; returns those left for the App, in order. */
  take(reads: string[]): string[] {
    if (this.over) return reads;
    const left = reads.flatMap((read) => this.editor.take(read));
    this.draw();
    return left;
  }

  /** The session is built: messages sent so far go to it, and the chrome shows what it says. */
  attach(session: InstantSession): void {
    this.session = session;
    for (const text of this.unsent.splice(0)) session.send(text);
    this.draw();
  }

  /** Stops drawing; the App starts from the editor, and its first frame begins with `erase`. */
  handOff(): Handoff {
    this.stop();
    return { editor: this.editor.editor, erase: this.eraseBytes() };
  }

  /** Clears the prompt and gives the cursor back (conch ends before its UI is up). */
  erase(): void {
    if (this.over) return;
    this.stop();
    this.out.write(`${this.eraseBytes()}${SHOW_CURSOR}`);
  }

  private stop(): void {
    this.over = true;
    clearInterval(this.timer);
  }

  /**
   * Line by line, from the last up to the blank first line, where the cursor stays. Not "clear to
   * the end of the screen": from the screen's top-left corner that clears the whole screen, which
   * tmux (its scroll-on-clear) and some terminals keep in the scrollback, above the transcript.
   */
  private eraseBytes(): string {
    return `\r\x1b[2K${"\x1b[1A\x1b[2K".repeat(Math.max(0, this.rows - 1))}\x1b[1A`;
  }

  private view(): ChromeView {
    const chrome: SessionChrome = this.session?.chrome() ?? {
      status: { busy: true, tone: "normal", text: `starting ${this.agent}…`, tail: "", detail: [], hints: "" },
      placeholder: inputPlaceholder("starting", false),
      queue: this.unsent,
      waitsFor: "the session opens",
      bar: [
        { key: "agent", text: this.agent },
        { key: "cwd", text: shortPath(this.cwd) },
      ] satisfies BarSegment[],
      modeHint: false,
    };
    return { ...chrome, editor: this.editor.editor, columns: this.out.columns ?? 80, rows: this.out.rows ?? 24, now: Date.now() };
  }

  private draw(): void {
    if (this.over) return;
    const rows = chromeRows(this.view());
    // Up to the first row; each row cleared and drawn; rows the last frame had beyond these cleared.
    const up = this.rows > 1 ? `\x1b[${this.rows - 1}A` : "";
    const extra = Math.max(0, this.rows - rows.length);
    const clearExtra = extra ? `${"\r\n\x1b[2K".repeat(extra)}\x1b[${extra}A` : "";
    this.out.write(`${this.rows ? `\r${up}` : ""}${rows.map((r) => `\x1b[2K${r}`).join("\r\n")}${clearExtra}`);
    this.rows = rows.length;
  }
}
