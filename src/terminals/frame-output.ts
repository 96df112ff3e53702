/** Output waits at most this long for a frame to go out with: the screen thread is gone, no frame comes. */
const MAX_WAIT_MS = 1000;

/**
 * A command's output held until the frame of its screen that shows it, then told as one piece:
 * the session's record of the output changes with the pane's rows, at the frames' pace (10 a
 * second in a flood), not on a timer of its own that redrew the UI ~30 times a second besides.
 */
export class FrameOutput {
  private pieces: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly send: (data: string) => void) {}

  /** Holds `data` until the next `flush` (at most MAX_WAIT_MS). */
  add(data: string): void {
    this.pieces.push(data);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), MAX_WAIT_MS);
    this.timer.unref();
  }

  /** Sends what is held, as one piece. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pieces.length === 0) return;
    const data = this.pieces.length === 1 ? this.pieces[0] : this.pieces.join("");
    this.pieces = [];
    this.send(data);
  }
}
