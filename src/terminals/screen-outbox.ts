/**
 * While the thread has output left to parse, output waits until this much (UTF-16 units) is held.
 * Posted whenever the thread was nearly done, a 20 MiB flood went as ~2,300 messages of a few KiB.
 */
const BATCH_CHARS = 64 * 1024;
/**
 * Output that comes this soon after the last message waits for a batch, or for this long, even when
 * the thread has caught up: in a flood the thread parses each message before the next read comes,
 * and posting every read it waited for sent 400-1,300 messages (and as many answers back) in a
 * 20 MiB flood, the more the busier the machine. Output after a quiet spell still goes at once.
 */
const POST_GAP_MS = 4;

/**
 * A pane's output not yet posted to the screen thread, as the PTY's bytes. Reads that arrive in one
 * turn go as one message; while the thread still parses, or right after a message, reads wait until
 * a batch's worth is here: a flood goes in 64 KiB messages instead of one per 4 KiB read, and a quiet
 * command's output still goes at once (the thread is idle). A message's bytes are copied once, into
 * a buffer of its own that is moved to the thread: no text is joined or encoded on the way.
 */
export class ScreenOutbox {
  private pieces: Uint8Array[] = [];
  private heldBytes = 0;
  /** What is held, in UTF-16 units of its text. */
  private held = 0;
  private scheduled = false;
  private postedAt = -Infinity;
  private gapTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * `send` posts output, UTF-8 of `chars` UTF-16 units, in a buffer it may move; `unparsed` is what
   * the thread has not parsed yet of everything written, this outbox's included.
   */
  constructor(
    private readonly send: (data: Uint8Array, chars: number) => void,
    private readonly unparsed: () => number,
  ) {}

  /**
   * Holds `data` (UTF-8 whose text is `chars` UTF-16 units long; the caller keeps its buffer, which
   * is read until the next post); it goes at the end of this turn if the thread is ready for it.
   */
  add(data: Uint8Array, chars: number): void {
    this.pieces.push(data);
    this.heldBytes += data.length;
    this.held += chars;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.offer();
    });
  }

  /**
   * Posts what is held if a batch waits, or if the thread has nothing else left to parse and the
   * last message went POST_GAP_MS ago or more; else a timer tries again then (a thread still busy by
   * then takes it at its next `parsed`, which calls this).
   */
  offer(): void {
    if (this.pieces.length === 0 || this.closed) return;
    if (this.held >= BATCH_CHARS) return this.flush();
    if (this.unparsed() !== this.held) return;
    const wait = this.postedAt + POST_GAP_MS - performance.now();
    if (wait <= 0) return this.flush();
    this.gapTimer ??= setTimeout(() => {
      this.gapTimer = undefined;
      this.offer();
    }, wait);
  }

  /** Posts what is held now (another message follows it, which must not overtake it). */
  flush(): void {
    if (this.pieces.length === 0) return;
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    this.postedAt = performance.now();
    // A buffer of its own: a read's may be a slice of memory Node shares, which must not be moved.
    const bytes = new Uint8Array(this.heldBytes);
    let at = 0;
    for (const piece of this.pieces) {
      bytes.set(piece, at);
      at += piece.length;
    }
    const chars = this.held;
    this.pieces = [];
    this.heldBytes = 0;
    this.held = 0;
    this.send(bytes, chars);
  }

  /** Drops what is held; with `close`, for good. */
  clear(close = false): void {
    this.pieces = [];
    this.heldBytes = 0;
    this.held = 0;
    clearTimeout(this.gapTimer);
    this.gapTimer = undefined;
    if (close) this.closed = true;
  }
}
