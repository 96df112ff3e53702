/**
 * Output lines written together: one write per turn of the event loop instead of one per line.
 * A pipe read of agent traffic is hundreds of updates folded in one turn; stdout to a pipe is a
 * synchronous write, so a write per line cost more than the line itself (stream-json's flood).
 */
export class LineBatch {
  private lines: string[] = [];
  private scheduled = false;

  constructor(private readonly write: (text: string) => void) {}

  /** Queues `line` (with its newline); it is written by the end of this turn. */
  push(line: string): void {
    this.lines.push(line);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes what is queued now: before anything else goes to the same output. */
  flush(): void {
    this.scheduled = false;
    if (this.lines.length === 0) return;
    const text = this.lines.join("");
    this.lines = [];
    this.write(text);
  }
}
