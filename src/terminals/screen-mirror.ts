import { ListenerSet, type Unsubscribe } from "./listener-set.js";
import type { FromScreenThread, ScreenWindow, ToScreenThread } from "./screen-protocol.js";
import { screenThread, type ScreenThread } from "./screen-thread.js";
import { ScreenOutbox } from "./screen-outbox.js";
import { KEPT_AFTER_EXIT, type ScreenView } from "./terminal.js";
import {
  DEFAULT_COLS,
  DEFAULT_ROWS,
  DEFAULT_SCROLLBACK,
  positiveInt,
  type ScreenLine,
  type SnapshotOptions,
  type TerminalScreenOptions,
} from "./terminal-screen.js";

/**
 * A client terminal's screen as the main thread sees it: the emulator runs on the screen thread
 * (screen-worker.ts), and this holds the rows of its latest frame, so `snapshot` stays synchronous
 * and a flood of output is never parsed on the thread the UI runs on. Views get the rows they asked for one frame later when
 * they ask for more than the frames carry (a taller tail, another scrolled window); until then they
 * get the closest rows there are.
 */
export class ScreenMirror implements ScreenView {
  private readonly id: number;
  private width: number;
  private height: number;
  private tail: ScreenLine[] = [];
  private head: ScreenLine[] = [];
  private content = 0;
  private window: (ScreenWindow & { lines: ScreenLine[] }) | null = null;
  private baseY = 0;
  private buffer: "normal" | "alternate" = "normal";
  private cursorAt = { x: 0, y: 0 };
  /** What the frames carry, as last asked of the thread. */
  private tailRows: number;
  private headRows = 0;
  private askedWindow: ScreenWindow | null = null;
  private unparsed = 0;
  /** Output not yet posted (see ScreenOutbox). */
  private readonly outbox = new ScreenOutbox(
    (data, chars) => this.thread.post({ type: "write", id: this.id, data, chars }, [data.buffer as ArrayBuffer]),
    () => this.unparsed,
  );
  private seq = 0;
  private readonly waits = new Map<number, (text: string) => void>();
  private readonly changes = new ListenerSet<void>();
  private readonly replies = new ListenerSet<string>();
  private readonly parsed = new ListenerSet<void>();
  private lostReason: string | null = null;
  private disposed = false;

  /** `thread` runs the emulator: the process's screen thread unless told otherwise. */
  constructor(
    options: Omit<TerminalScreenOptions, "convertEol"> = {},
    private readonly thread: ScreenThread = screenThread(),
  ) {
    this.width = positiveInt(options.cols, DEFAULT_COLS);
    this.height = positiveInt(options.rows, DEFAULT_ROWS);
    this.tailRows = this.height;
    const scrollback = Math.max(0, Math.floor(options.scrollback ?? DEFAULT_SCROLLBACK));
    this.id = this.thread.attach({ receive: (message) => this.receive(message), lost: (reason) => this.lose(reason) });
    this.thread.post({ type: "open", id: this.id, cols: this.width, rows: this.height, scrollback, tailRows: this.tailRows });
  }

  /** Width in cells, as last set (the thread follows). */
  get cols(): number {
    return this.width;
  }

  /** Height of the visible screen in rows, as last set. */
  get rows(): number {
    return this.height;
  }

  /** Rows above the visible ones, as of the latest frame. */
  get scrollbackRows(): number {
    return this.baseY;
  }

  /** `alternate` while a full-screen program owns the screen, as of the latest frame. */
  get bufferType(): "normal" | "alternate" {
    return this.buffer;
  }

  /** Rows from the top of the buffer through the last one with content, as of the latest frame. */
  get contentRows(): number {
    return this.content;
  }

  /** Cursor position within the visible rows (0-based), as of the latest frame. */
  get cursor(): { x: number; y: number } {
    return { ...this.cursorAt };
  }

  /** Output sent to the thread and not parsed yet, in UTF-16 units: what a PTY reader paces itself by. */
  get pending(): number {
    return this.unparsed;
  }

  /** Sends output to the emulator. */
  write(data: string): void {
    if (data !== "") this.writeBytes(Buffer.from(data, "utf8"), data.length);
  }

  /**
   * Sends output to the emulator as the PTY's bytes, whose text is `chars` UTF-16 units long (a
   * character split between two reads may count with the second; the emulator joins its bytes).
   * The buffer must not change afterwards: it is read when the output is posted, which can be later.
   */
  writeBytes(data: Uint8Array, chars: number): void {
    if (data.length === 0 || this.disposed || this.lostReason !== null) return;
    this.unparsed += chars;
    this.outbox.add(data, chars);
  }

  /** Changes the grid size; the thread reflows and sends a frame. */
  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    this.width = positiveInt(cols, this.width);
    this.height = positiveInt(rows, this.height);
    this.post({ type: "resize", id: this.id, cols: this.width, rows: this.height });
  }

  /** The rows to draw, from the latest frame. See {@link SnapshotOptions}. */
  snapshot(options: SnapshotOptions = {}): ScreenLine[] {
    const notice: ScreenLine[] = this.lostReason === null ? [] : [[{ text: `(${this.lostReason})`, dim: true }]];
    if (options.head !== undefined) {
      const rows = Math.max(0, Math.floor(options.head));
      if (rows > this.headRows) this.ask(this.tailRows, this.askedWindow, rows);
      return this.head.slice(0, rows);
    }
    if (options.tail !== undefined) {
      const rows = Math.max(0, Math.floor(options.tail));
      if (rows > this.tailRows) this.ask(rows, this.askedWindow);
      return [...this.tail.slice(Math.max(0, this.tail.length - rows)), ...notice];
    }
    const wanted: ScreenWindow = {
      offset: Math.min(Math.max(0, Math.floor(options.scrollOffset ?? 0)), this.baseY),
      rows: positiveInt(options.rows, this.height),
    };
    if (!sameWindow(this.askedWindow, wanted)) this.ask(this.tailRows, wanted);
    // Until the asked rows arrive: the window shown before, or the live bottom.
    return [...(this.window?.lines ?? this.tail.slice(Math.max(0, this.tail.length - wanted.rows))), ...notice];
  }

  /** Resolves once everything written so far is parsed and the latest frame shows it. */
  flush(): Promise<void> {
    return this.request("flush").then(() => undefined);
  }

  /**
   * The command is over: the frames carry what its views may show of it from now on (a head and a
   * tail of `KEPT_AFTER_EXIT`), and the returned flush resolves once that frame is here, so a pane
   * printed once to the scrollback is printed whole.
   */
  keepFinalRows(): Promise<void> {
    this.ask(Math.max(this.tailRows, KEPT_AFTER_EXIT.tail), this.askedWindow, Math.max(this.headRows, KEPT_AFTER_EXIT.head));
    return this.flush();
  }

  /**
   * The whole buffer (scrollback and visible rows) as text, soft-wrapped rows joined, trailing
   * spaces and empty rows dropped, once everything written so far is parsed. For tests and tools.
   */
  plainText(): Promise<string> {
    return this.request("text");
  }

  /** The latest frame arrived (or the thread was lost); fires at most ~30 times a second. */
  onChange(listener: () => void): Unsubscribe {
    return this.changes.add(listener);
  }

  /** What the emulator answers to queries in the output; a PTY owner writes these back to the program. */
  onReply(listener: (data: string) => void): Unsubscribe {
    return this.replies.add(listener);
  }

  /** Some output was parsed: `pending` went down. */
  onParsed(listener: () => void): Unsubscribe {
    return this.parsed.add(listener);
  }

  /** Frees the emulator; the last rows stay readable, later writes are ignored. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.lostReason === null) this.post({ type: "close", id: this.id });
    this.thread.detach(this.id);
    this.settleWaits();
    this.changes.clear();
    this.replies.clear();
    this.parsed.clear();
  }

  private request(type: "flush" | "text"): Promise<string> {
    if (this.disposed || this.lostReason !== null) return Promise.resolve(type === "text" ? this.lastText() : "");
    const seq = ++this.seq;
    this.thread.beginWait();
    return new Promise((resolve) => {
      this.waits.set(seq, (text) => {
        this.thread.endWait();
        resolve(text);
      });
      this.post({ type, id: this.id, seq });
    });
  }

  private ask(tailRows: number, window: ScreenWindow | null, headRows = this.headRows): void {
    if (this.disposed || this.lostReason !== null) return;
    this.tailRows = tailRows;
    this.headRows = headRows;
    this.askedWindow = window;
    this.post({ type: "view", id: this.id, tailRows, headRows, window });
  }

  /** Posts the waiting output, then `message`: the thread sees everything in the order it happened. */
  private post(message?: ToScreenThread): void {
    this.outbox.flush();
    if (message) this.thread.post(message);
  }

  private receive(message: FromScreenThread): void {
    switch (message.type) {
      case "frame":
        this.tail = message.tail;
        this.head = message.head;
        this.content = message.contentRows;
        this.window = message.window;
        this.baseY = message.baseY;
        this.buffer = message.bufferType;
        this.cursorAt = { x: message.cursorX, y: message.cursorY };
        this.changes.emit();
        break;
      case "parsed":
        this.unparsed = Math.max(0, this.unparsed - message.chars);
        this.outbox.offer();
        this.parsed.emit();
        break;
      case "reply":
        this.replies.emit(message.data);
        break;
      case "flushed":
      case "text": {
        const settle = this.waits.get(message.seq);
        this.waits.delete(message.seq);
        settle?.(message.type === "text" ? message.text : "");
        break;
      }
    }
  }

  /** The thread died: keep the last rows, say why, and let everything waiting on it go on. */
  private lose(reason: string): void {
    this.lostReason = reason;
    this.unparsed = 0;
    this.outbox.clear(true);
    this.settleWaits();
    this.parsed.emit();
    this.changes.emit();
  }

  private settleWaits(): void {
    const text = this.lastText();
    for (const settle of [...this.waits.values()]) settle(text);
    this.waits.clear();
  }

  private lastText(): string {
    return this.tail
      .map((line) =>
        line
          .map((segment) => segment.text)
          .join("")
          .trimEnd(),
      )
      .join("\n");
  }
}

function sameWindow(a: ScreenWindow | null, b: ScreenWindow): boolean {
  return a !== null && a.offset === b.offset && a.rows === b.rows;
}
