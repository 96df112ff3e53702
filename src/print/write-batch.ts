/**
 * Output written together: one write per turn of the event loop instead of one per piece. A pipe
 * read of agent traffic is hundreds of updates folded in one turn, and print mode reads each of
 * them on its own; stdout to a pipe is a synchronous write, so a write per piece cost more than
 * the piece itself (stream-json's flood). Pieces for stdout and stderr keep their order: a switch
 * from one to the other writes what the first has queued.
 */
export class WriteBatch {
  private pending: string[] = [];
  private to?: (text: string) => void;
  private scheduled = false;

  /** Queues `text` for `write`; it is written by the end of this turn, after what was queued before. */
  push(write: (text: string) => void, text: string): void {
    if (this.to !== write) {
      this.flush();
      this.to = write;
    }
    this.pending.push(text);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes what is queued now: before anything else goes to the same outputs. */
  flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || !this.to) return;
    const text = this.pending.join("");
    this.pending = [];
    this.to(text);
  }
}
