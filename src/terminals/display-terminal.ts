import { TerminalEvents } from "./terminal-events.js";
import type { ExitStatus, Terminal } from "./terminal.js";
import { TerminalScreen, type TerminalScreenOptions } from "./terminal-screen.js";

/** Screen settings for a display terminal (line endings are always converted; see below). */
export type DisplayTerminalOptions = Omit<TerminalScreenOptions, "convertEol"> & { cwd?: string | null };

/**
 * An agent-owned terminal conch only shows: the agent runs the command and streams its bytes in
 * tool call `_meta` (`terminal_output`), then reports `terminal_exit`. No process, no input.
 */
export class DisplayTerminal extends TerminalEvents implements Terminal {
  readonly kind = "display" as const;
  readonly screen: TerminalScreen;
  private currentCwd: string | null;
  private status: ExitStatus | null = null;
  /** Writes (and an exit's flush) the emulator has not parsed yet. */
  private inFlight = 0;

  constructor(
    readonly id: string,
    options: DisplayTerminalOptions = {},
  ) {
    super();
    this.currentCwd = options.cwd ?? null;
    // The bytes did not pass through a PTY line discipline here, so "\n" has no "\r" with it.
    this.screen = new TerminalScreen({ ...options, convertEol: true });
  }

  /** Where the agent runs it, when the agent said. */
  get cwd(): string | null {
    return this.currentCwd;
  }

  /** Null until the agent reports an exit (some never do). */
  get exitStatus(): ExitStatus | null {
    return this.status;
  }

  /** Output (or the exit) is written and not on the screen yet. */
  get parsing(): boolean {
    return this.inFlight > 0;
  }

  /** Learns the cwd late (a repeated `terminal_info` may bring it). */
  setCwd(cwd: string): void {
    this.currentCwd = cwd;
  }

  /** Appends output. Accepted after exit too: agents may report the exit before the last bytes. */
  write(data: string): void {
    if (data === "") return;
    this.outputListeners.emit(data);
    this.inFlight++;
    this.screen.write(data, () => {
      this.inFlight--;
      this.screenListeners.emit();
    });
  }

  /** Records the exit the agent reported; only the first one counts. */
  exit(exitCode: number | null, signal: string | null): void {
    if (this.status) return;
    const status: ExitStatus = { exitCode, signal };
    this.status = status;
    // Listeners see a screen that holds all output written before the exit.
    this.inFlight++;
    void this.screen.flush().then(() => {
      this.inFlight--;
      this.exitListeners.emit(status);
    });
  }

  /** Resolves once everything written so far is on the screen. */
  flush(): Promise<void> {
    return this.screen.flush();
  }

  /** Resizes the screen (there is no process to tell). */
  resize(cols: number, rows: number): void {
    this.screen.resize(cols, rows);
  }
}
