import { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { KeyReadSplitter } from "./key-reads.js";

/** Asks the terminal to mark pastes, so a pasted newline is never taken for Enter. */
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";
/** Asks which kitty-keyboard flags are on; only terminals that speak the protocol answer. */
const KITTY_QUERY = "\x1b[?u";

/** The terminal's input side, as much of `tty.ReadStream` as conch uses. */
export interface TtyInput {
  setRawMode(mode: boolean): unknown;
  on(event: "data", fn: (chunk: Buffer | string) => void): unknown;
  off(event: "data", fn: (chunk: Buffer | string) => void): unknown;
  pause(): unknown;
  resume?(): unknown;
  ref?(): unknown;
  unref?(): unknown;
}

/** The terminal's output side: only writes. */
export interface TtyOutput {
  write(text: string): unknown;
}

/**
 * Terminals known to speak the kitty keyboard protocol (Ink's own list): only these are asked, as
 * a terminal that does not know the query may print it.
 */
export function speaksKittyKeyboard(env: NodeJS.ProcessEnv): boolean {
  if (env.CI !== undefined && env.CI !== "0" && env.CI !== "false") return false;
  return (
    env.KITTY_WINDOW_ID !== undefined || env.TERM === "xterm-kitty" || env.TERM_PROGRAM === "WezTerm" || env.TERM_PROGRAM === "ghostty"
  );
}

/**
 * conch's one reader of the terminal, from its first millisecond. It puts the terminal in raw mode
 * at once (so Enter is a CR and Ctrl-C a key, not a signal), turns bracketed paste on before the
 * user can paste, and keeps every key typed while the UI loads. The UI then reads through
 * `stream()`, which hands over the kept keys first, in order; every read, kept or live, is cut
 * after each Enter (`KeyReadSplitter`), so keys that reached conch together never merge messages.
 */
export class TerminalInput {
  private readonly splitter = new KeyReadSplitter();
  private readonly decoder = new StringDecoder("utf8");
  /** Reads kept until the editor takes them. */
  private held: string[] = [];
  private ink?: InkInput;
  private closed = false;
  /** The terminal answered the kitty-keyboard query: Ink may turn the protocol on without asking again. */
  kittyKeyboard = false;
  /** Ctrl-C was typed before the UI took the keys. */
  interrupted = false;
  private cookedKeysLeft = true;
  private suspended = false;
  private onInterrupt?: () => void;
  private onHeld?: (reads: string[]) => string[];

  private constructor(
    private readonly input: TtyInput,
    private readonly output: TtyOutput,
    askKitty: boolean,
  ) {
    input.setRawMode(true);
    // Keys typed before raw mode went through cooked mode, where Enter arrives as \n. They are
    // all in the first read, which Node delivers in the event loop's second turn (the stream
    // starts reading in the first), so \n stands for Enter until then.
    setImmediate(() =>
      setImmediate(() => {
        this.cookedKeysLeft = false;
      }),
    );
    output.write(BRACKETED_PASTE_ON + (askKitty ? KITTY_QUERY : ""));
    input.on("data", this.onData);
    // Taken over again after a line prompt (the trust question) paused it, the stream must flow.
    input.resume?.();
  }

  /** Takes the terminal over: raw mode, bracketed paste, every key kept from now on. */
  static open(input: TtyInput, output: TtyOutput, opts: { askKitty?: boolean } = {}): TerminalInput {
    return new TerminalInput(input, output, opts.askKitty ?? false);
  }

  /** Calls `fn` once if Ctrl-C is typed before the UI takes the keys (at once if it already was). */
  whenInterrupted(fn: () => void): void {
    this.onInterrupt = fn;
    if (this.interrupted) fn();
  }

  /**
   * Hands each batch of keys typed before the UI reads to `fn` (the instant prompt's editor), which
   * returns the ones it leaves to the UI: those are kept for it, in order.
   */
  onKeysHeld(fn: (reads: string[]) => string[]): void {
    this.onHeld = fn;
  }

  /** Ends startup as Ctrl-C would (a signal while the UI loads); once the UI reads, it decides. */
  interrupt(): void {
    if (this.ink || this.interrupted) return;
    this.interrupted = true;
    this.onInterrupt?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    if (!text || this.closed) return;
    if (this.cookedKeysLeft) text = text.replaceAll("\n", "\r");
    if (this.interrupted) return;
    const got = this.splitter.push(text, { starting: !this.ink });
    if (got.kittyAnswered) this.kittyKeyboard = true;
    if (this.ink) {
      for (const read of got.reads) this.ink.push(read);
      return;
    }
    if (got.reads.length) this.held.push(...(this.onHeld ? this.onHeld(got.reads) : got.reads));
    if (got.interrupted) {
      this.interrupted = true;
      this.onInterrupt?.();
    }
  };

  /**
   * The stream Ink reads from: the kept keys first, each as its own read, then whatever is typed
   * next. Keys stop being kept (and Ctrl-C is the UI's to handle) from this call on.
   */
  stream(): InkInput {
    if (this.ink) return this.ink;
    this.ink = new InkInput(this.input);
    for (const read of [...this.held, ...this.splitter.flush()]) this.ink.push(read);
    this.held = [];
    return this.ink;
  }

  /**
   * Lends the terminal to another program for a while (the external editor): no more reading,
   * bracketed paste off, the terminal's own line mode back. `resume` takes it again.
   */
  suspend(): void {
    if (this.closed || this.suspended) return;
    this.suspended = true;
    this.input.off("data", this.onData);
    this.input.pause();
    this.output.write(BRACKETED_PASTE_OFF);
    try {
      this.input.setRawMode(false);
    } catch {
      // The terminal is gone: nothing to lend.
    }
  }

  /** Takes the terminal back after `suspend`: raw mode, bracketed paste, reading again. */
  resume(): void {
    if (this.closed || !this.suspended) return;
    this.suspended = false;
    this.input.setRawMode(true);
    this.output.write(BRACKETED_PASTE_ON);
    this.input.on("data", this.onData);
    this.input.resume?.();
  }

  /** Gives the terminal back: no more reading, bracketed paste off, raw mode off. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.pause();
    this.output.write(BRACKETED_PASTE_OFF);
    try {
      this.input.setRawMode(false);
    } catch {
      // The terminal is already gone (hung up): there is nothing to give back.
    }
    this.ink?.push(null);
  }
}

/**
 * What Ink reads as its stdin. Object mode, so each read the terminal gave stays one key event
 * (a byte stream would join the kept keys into one read), and `setEncoding` is a no-op for the same
 * reason: the reads are already decoded text. Raw mode and ref/unref go to the real terminal.
 */
export class InkInput extends Readable {
  readonly isTTY = true;

  constructor(private readonly tty: TtyInput) {
    super({ objectMode: true });
  }

  override _read(): void {
    // Reads are pushed as the terminal delivers them.
  }

  override setEncoding(_encoding?: BufferEncoding): this {
    return this;
  }

  setRawMode(mode: boolean): this {
    this.tty.setRawMode(mode);
    return this;
  }

  ref(): this {
    this.tty.ref?.();
    return this;
  }

  unref(): this {
    this.tty.unref?.();
    return this;
  }
}
