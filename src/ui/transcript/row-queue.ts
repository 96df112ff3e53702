/**
 * Rows planned for the scrollback and not written yet, in transcript order. A terminal takes a
 * write in order and whole: the echo of a key typed meanwhile comes after all of it, and while the
 * terminal is behind, conch waits in the write (a TTY's writes block). `take` hands them out in
 * pieces, so neither a key's read nor its echo waits behind more than a piece.
 */
export class RowQueue {
  private rows: string[] = [];
  private chars = 0;

  /** Rows go to the end of the queue. */
  push(rows: readonly string[]): void {
    for (const row of rows) {
      this.rows.push(row);
      this.chars += row.length + 1;
    }
  }

  /** How much is waiting, in UTF-16 units with a line break after each row (close to bytes). */
  get size(): number {
    return this.chars;
  }

  /** Forgets every row (the screen is printed again, or what was printed is skipped). */
  clear(): void {
    this.rows = [];
    this.chars = 0;
  }

  /**
   * The oldest rows, as the text to write: whole rows up to `max` units (at least one row), each
   * ending with a line break; undefined when nothing waits.
   */
  take(max = Infinity): string | undefined {
    if (this.rows.length === 0) return undefined;
    let n = 0;
    let size = 0;
    while (n < this.rows.length && (n === 0 || size + this.rows[n].length + 1 <= max)) size += this.rows[n++].length + 1;
    const piece = n === this.rows.length ? this.rows : this.rows.slice(0, n);
    this.rows = n === this.rows.length ? [] : this.rows.slice(n);
    this.chars -= size;
    return `${piece.join("\n")}\n`;
  }
}
