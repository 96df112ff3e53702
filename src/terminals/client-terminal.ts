import { randomUUID } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import type { IDisposable, IPty } from "@lydell/node-pty";
import type { TerminalOutputResponse } from "@agentclientprotocol/sdk";
import { TerminalEvents } from "./terminal-events.js";
import { ListenerSet, type Unsubscribe } from "./listener-set.js";
import { OutputLog } from "./output-log.js";
import { watchChildExit } from "./child-exit-watch.js";
import { PtyExitDrain } from "./pty-exit-drain.js";
import { signalName } from "./process-group.js";
import { processRoot } from "./process-tree.js";
import type { ExitStatus, Terminal } from "./terminal.js";
import { ScreenMirror } from "./screen-mirror.js";
import { FrameOutput } from "./frame-output.js";
import { endsMidCharacter } from "./pty-bytes.js";
import { prepareCommand, ptsNameOf, spawnInPty } from "./command-spawn.js";
import { CommandKill } from "./command-kill.js";

/** Pause reading the PTY when this much output (UTF-16 units) waits for the emulator... */
const PAUSE_ABOVE_PENDING = 1024 * 1024;
/** ...and read again once it has caught up to below this. */
const RESUME_BELOW_PENDING = 256 * 1024;
/** How long a command may take to die after SIGTERM before its group gets SIGKILL. */
const DEFAULT_KILL_GRACE_MS = 2000;

/** What to run; mirrors ACP `CreateTerminalRequest` plus screen settings. */
export interface ClientTerminalOptions {
  /** Defaults to a fresh unique id. */
  id?: string;
  command: string;
  args?: string[];
  /** Added to (and overriding) conch's own environment. */
  env?: Array<{ name: string; value: string }>;
  /** Already resolved and allowed (see `resolveWorkingDirectory`); defaults to conch's cwd. */
  cwd?: string | null;
  /** UTF-8 bytes of output kept for `terminal/output`. */
  outputByteLimit?: number | null;
  cols?: number;
  rows?: number;
  scrollback?: number;
  killGraceMs?: number;
}

/** A command conch runs in a PTY for an agent's `terminal/create`, shown live and readable after it ends. */
export class ClientTerminal extends TerminalEvents implements Terminal {
  readonly id: string;
  readonly kind = "client" as const;
  readonly cwd: string;
  /** The command as a person would type it, for the pane's title. */
  readonly commandLine: string;
  readonly pid: number;
  /** The emulator runs on the screen thread; this holds its latest frame. */
  readonly screen: ScreenMirror;

  private readonly pty: IPty;
  private readonly log: OutputLog;
  private readonly ptySubscriptions: IDisposable[] = [];
  private readonly tree: CommandKill;
  private readonly exitPromise: Promise<ExitStatus>;
  private resolveExit!: (status: ExitStatus) => void;
  private status: ExitStatus | null = null;
  /** The exit is known and the frame with the command's final rows is not here yet. */
  private finishing = false;
  private alive = true;
  private isReleased = false;
  private paused = false;
  private readonly exitDrain: PtyExitDrain;
  private readonly resizeListeners = new ListenerSet<{ cols: number; rows: number }>();
  /**
   * The output is joined once a frame, and that text goes to the log too: the log joining its own
   * copy of every read was a second copy of a flood's whole text on the main thread.
   */
  private readonly unsentOutput = new FrameOutput((data) => {
    if (!this.isReleased) this.log.append(data);
    this.outputListeners.emit(data);
  });
  /** The output's text, for the log and the session; the screen gets the bytes. */
  private readonly decoder = new StringDecoder("utf8");
  private screenGetsText = false;
  private readonly stopExitWatch: () => void;

  /** Starts the command; throws an Error for the agent when the program does not exist. */
  constructor(options: ClientTerminalOptions) {
    super();
    this.id = options.id ?? `term-${randomUUID()}`;
    this.cwd = options.cwd ?? process.cwd();
    this.log = new OutputLog(options.outputByteLimit);
    this.commandLine = [options.command, ...(options.args ?? [])].join(" ");
    this.exitPromise = new Promise((resolve) => {
      this.resolveExit = resolve;
    });

    const command = prepareCommand(options.command, options.args, options.env, this.cwd);
    this.screen = new ScreenMirror({ cols: options.cols, rows: options.rows, scrollback: options.scrollback });
    try {
      this.pty = spawnInPty(command, this.screen.cols, this.screen.rows);
    } catch (error) {
      this.screen.dispose();
      throw error;
    }
    this.pid = this.pty.pid;
    this.tree = new CommandKill(processRoot(this.pid, command.tag), options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    this.exitDrain = new PtyExitDrain(ptsNameOf(this.pty));
    this.stopExitWatch = watchChildExit(this.pid, () => this.handleCommandGone());
    this.ptySubscriptions.push(
      this.pty.onData((data) => this.handleData(data)),
      this.pty.onExit(({ exitCode, signal }) => this.handleExit(exitCode, signal)),
    );
    this.screen.onReply((reply) => this.write(reply));
    this.screen.onChange(() => {
      this.unsentOutput.flush();
      this.screenListeners.emit();
    });
    this.screen.onParsed(() => {
      if (this.paused && this.screen.pending < RESUME_BELOW_PENDING) this.resumeReading();
    });
  }

  /** Null while running; after exit, how it ended. */
  get exitStatus(): ExitStatus | null {
    return this.status;
  }

  /** Output is on its way to the screen thread, or the exit's final frame is. */
  get parsing(): boolean {
    return this.finishing || this.screen.pending > 0;
  }

  /** True once `release()` was called: the agent is done with it, only the screen remains. */
  get released(): boolean {
    return this.isReleased;
  }

  /** The ACP `terminal/output` answer: retained output, whether some was dropped, and the exit status once exited. */
  output(): TerminalOutputResponse {
    // What was read is in the answer, and told now rather than with the next frame.
    this.unsentOutput.flush();
    const response: TerminalOutputResponse = { output: this.log.text, truncated: this.log.truncated };
    if (this.status) response.exitStatus = { ...this.status };
    return response;
  }

  /** Resolves when the command has exited and the screen has parsed all its output (ACP `terminal/wait_for_exit`). */
  waitForExit(): Promise<ExitStatus> {
    return this.exitPromise;
  }

  /**
   * Signals the command and every process it started (its process group, and daemons that left
   * it: see `collectProcessTree`); SIGKILL follows after a grace period if any of them is still
   * there. The terminal stays readable (ACP `terminal/kill`).
   */
  kill(signal: NodeJS.Signals = "SIGTERM"): void {
    this.tree.kill(signal);
  }

  /**
   * ACP `terminal/release`: kills the command (and what it left running) and frees the output log.
   * The screen stays readable for the UI. Calling it again does nothing.
   */
  release(): void {
    if (this.isReleased) return;
    this.isReleased = true;
    this.unsentOutput.flush(); // what was read is told now: a session that ends releases every terminal
    this.log.clear();
    this.kill();
    if (!this.alive) this.tree.forgetAfterGrace();
  }

  /** Types into the command (the user focused its pane). Ignored once it has exited. */
  write(data: string): void {
    if (this.alive) this.pty.write(data);
  }

  /** The PTY took a new size: the output after it is laid out for that size. */
  onResize(listener: (size: { cols: number; rows: number }) => void): Unsubscribe {
    return this.resizeListeners.add(listener);
  }

  /** Resizes the PTY (the program gets SIGWINCH) and the screen. */
  resize(cols: number, rows: number): void {
    const before = { cols: this.screen.cols, rows: this.screen.rows };
    this.screen.resize(cols, rows);
    if (!this.alive) return;
    if (this.screen.cols !== before.cols || this.screen.rows !== before.rows) {
      // The output before the resize was laid out for the old size: it goes first.
      this.unsentOutput.flush();
      this.resizeListeners.emit({ cols: this.screen.cols, rows: this.screen.rows });
    }
    try {
      this.pty.resize(this.screen.cols, this.screen.rows);
    } catch {
      // The PTY can close between the exit of the command and our exit event.
    }
  }

  /** Bytes, or text where the PTY's stream could not be made to give bytes (see `readAsBytes`). */
  private handleData(raw: Buffer | string): void {
    const data = this.exitDrain.take(typeof raw === "string" ? Buffer.from(raw, "utf8") : raw);
    if (data.length > 0) this.handleOutput(data);
  }

  private handleOutput(bytes: Buffer): void {
    const text = this.decoder.write(bytes);
    this.keep(text);
    // Bytes that are not UTF-8 show as U+FFFD, as in the text (the emulator would drop them); the
    // rest of a character cut off in such a read then follows as text too.
    if (this.screenGetsText || text.includes("\ufffd")) {
      this.screen.write(text);
      this.screenGetsText = endsMidCharacter(bytes);
    } else this.screen.writeBytes(bytes, text.length);
    // Backpressure: a command that prints faster than xterm parses would otherwise grow memory
    // without bound. Pausing the PTY stops reading, so the kernel blocks the writer.
    if (!this.paused && !this.exitDrain.draining && this.screen.pending > PAUSE_ABOVE_PENDING) this.pauseReading();
  }

  /** The output's text, for `terminal/output` and the session (both get it with the frame that shows it). */
  private keep(text: string): void {
    if (text !== "") this.unsentOutput.add(text);
  }

  private pauseReading(): void {
    this.paused = true;
    this.pty.pause();
  }

  private resumeReading(): void {
    this.paused = false;
    if (this.alive) this.pty.resume();
  }

  /** The command's process is gone; its last output may still sit in the PTY. */
  private handleCommandGone(): void {
    this.exitDrain.begin();
    // The rest must be read now: a paused stream would still be paused when node-pty gives up on it.
    if (this.paused) this.resumeReading();
  }

  private handleExit(exitCode: number, signal: number | undefined): void {
    this.alive = false;
    this.stopExitWatch();
    const rest = this.exitDrain.finish();
    if (rest.length > 0) this.handleOutput(rest);
    // A character cut off at the end: the decoder's replacement for it, as a decoding PTY stream gave.
    const cut = this.decoder.end();
    this.keep(cut);
    this.screen.write(cut);
    const name = signalName(signal);
    const status: ExitStatus = name ? { exitCode: null, signal: name } : { exitCode, signal: null };
    for (const subscription of this.ptySubscriptions) subscription.dispose();
    if (this.isReleased) this.tree.forgetAfterGrace();
    this.status = status;
    this.finishing = true;
    void this.screen.keepFinalRows().then(() => {
      this.finishing = false;
      this.unsentOutput.flush();
      this.exitListeners.emit(status);
      this.resolveExit(status);
    });
  }
}
