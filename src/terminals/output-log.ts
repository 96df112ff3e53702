/**
 * Default cap when the agent gives no `outputByteLimit`: ACP sets none, but a command such as `yes`
 * would otherwise grow the log until conch runs out of memory.
 */
export const DEFAULT_OUTPUT_BYTE_LIMIT = 16 * 1024 * 1024;

/** A command's output as text, bounded in UTF-8 bytes by dropping the oldest characters. */
export class OutputLog {
  private chunks: string[] = [];
  private bytes = 0;
  private dropped = false;
  private readonly limit: number;

  /** `limit` is in UTF-8 bytes; null or undefined uses {@link DEFAULT_OUTPUT_BYTE_LIMIT}. */
  constructor(limit?: number | null) {
    this.limit = limit === null || limit === undefined || !Number.isFinite(limit) ? DEFAULT_OUTPUT_BYTE_LIMIT : Math.max(0, Math.floor(limit));
  }

  /** Appends output, then drops whole characters from the front until it fits the limit. */
  append(text: string): void {
    if (text === "") return;
    this.chunks.push(text);
    this.bytes += Buffer.byteLength(text, "utf8");
    if (this.bytes > this.limit) this.trimFront();
    // Many small chunks make `text` slow and cost memory per entry; fold them now and then.
    if (this.chunks.length > 256) this.chunks = [this.chunks.join("")];
  }

  /** The retained output. */
  get text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join("")];
    return this.chunks[0] ?? "";
  }

  /** Whether anything was ever dropped to stay within the limit. */
  get truncated(): boolean {
    return this.dropped;
  }

  /** UTF-8 size of the retained output. */
  get byteLength(): number {
    return this.bytes;
  }

  /** Forgets everything (after `terminal/release`, the log is no longer needed). */
  clear(): void {
    this.chunks = [];
    this.bytes = 0;
  }

  private trimFront(): void {
    this.dropped = true;
    let excess = this.bytes - this.limit;
    while (excess > 0 && this.chunks.length > 0) {
      const first = this.chunks[0];
      const size = Buffer.byteLength(first, "utf8");
      if (size <= excess) {
        this.chunks.shift();
        this.bytes -= size;
        excess -= size;
        continue;
      }
      const cut = charBoundaryAfter(first, excess);
      const removed = Buffer.byteLength(first.slice(0, cut), "utf8");
      this.chunks[0] = first.slice(cut);
      this.bytes -= removed;
      excess -= removed;
    }
  }
}

/**
 * The smallest string index whose prefix holds at least `bytes` UTF-8 bytes. Walking by code point
 * keeps surrogate pairs together, so the rest is always valid text.
 */
function charBoundaryAfter(text: string, bytes: number): number {
  let index = 0;
  let counted = 0;
  while (index < text.length && counted < bytes) {
    const code = text.codePointAt(index) ?? 0;
    counted += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code >= 0x10000 ? 2 : 1;
  }
  return index;
}
