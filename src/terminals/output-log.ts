/**
 * Default cap when the agent gives no `outputByteLimit`: ACP sets none, but a command such as `yes`
 * would otherwise grow the log until conch runs out of memory.
 */
const DEFAULT_OUTPUT_BYTE_LIMIT = 16 * 1024 * 1024;

/**
 * Recent chunks are joined into one piece once they hold this many bytes (or 256 chunks)... A
 * piece this size is made in V8's large-object space, which a scavenge does not copy: 64 KiB
 * pieces were copied on their way to the old generation, 26 MB of copying for a 20 MiB flood.
 */
const PIECE_BYTES = 256 * 1024;
const PIECE_CHUNKS = 256;

/**
 * A command's output as text, bounded in UTF-8 bytes by dropping the oldest characters.
 *
 * Appending costs the size of the chunk, not of the log: recent chunks are joined into pieces of
 * about 256 KiB whose sizes are kept, so a full log drops whole pieces from the front and cuts into
 * at most one. (Joining the whole log now and then, and measuring its first string again on every
 * append once full, made a command that printed past the limit crawl at about 1 MB/s.)
 */
export class OutputLog {
  private pieces: string[] = [];
  private pieceBytes: number[] = [];
  private recent: string[] = [];
  private recentSizes: number[] = [];
  private recentBytes = 0;
  private bytes = 0;
  private dropped = false;
  private readonly limit: number;

  /** `limit` is in UTF-8 bytes; null or undefined uses {@link DEFAULT_OUTPUT_BYTE_LIMIT}. */
  constructor(limit?: number | null) {
    this.limit =
      limit === null || limit === undefined || !Number.isFinite(limit) ? DEFAULT_OUTPUT_BYTE_LIMIT : Math.max(0, Math.floor(limit));
  }

  /** Appends output, then drops whole characters from the front until it fits the limit. */
  append(text: string): void {
    if (text === "") return;
    const size = Buffer.byteLength(text, "utf8");
    this.recent.push(text);
    this.recentSizes.push(size);
    this.recentBytes += size;
    this.bytes += size;
    if (this.recentBytes >= PIECE_BYTES || this.recent.length >= PIECE_CHUNKS) this.foldRecent();
    if (this.bytes > this.limit) this.trimFront();
  }

  /** The retained output. */
  get text(): string {
    this.foldRecent();
    if (this.pieces.length > 1) {
      this.pieces = [this.pieces.join("")];
      this.pieceBytes = [this.bytes];
    }
    return this.pieces[0] ?? "";
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
    this.pieces = [];
    this.pieceBytes = [];
    this.recent = [];
    this.recentSizes = [];
    this.recentBytes = 0;
    this.bytes = 0;
  }

  private foldRecent(): void {
    if (this.recent.length === 0) return;
    this.pieces.push(this.recent.length === 1 ? this.recent[0] : this.recent.join(""));
    this.pieceBytes.push(this.recentBytes);
    this.recent = [];
    this.recentSizes = [];
    this.recentBytes = 0;
  }

  private trimFront(): void {
    this.dropped = true;
    let excess = this.bytes - this.limit;
    // Whole pieces first, then whole recent chunks: counted, not measured, and nothing joined (a
    // log smaller than a piece, as an agent's `outputByteLimit` often is, never joins at all).
    let whole = 0;
    while (whole < this.pieces.length && this.pieceBytes[whole] <= excess) excess -= this.pieceBytes[whole++];
    if (whole > 0) {
      this.pieces.splice(0, whole);
      this.pieceBytes.splice(0, whole);
    }
    if (this.pieces.length === 0) {
      let chunks = 0;
      while (chunks < this.recent.length && this.recentSizes[chunks] <= excess) {
        excess -= this.recentSizes[chunks];
        this.recentBytes -= this.recentSizes[chunks++];
      }
      if (chunks > 0) {
        this.recent.splice(0, chunks);
        this.recentSizes.splice(0, chunks);
      }
    }
    this.bytes = this.limit + excess;
    if (excess <= 0) return;
    // The rest is cut from the oldest text kept, a piece or else a recent chunk.
    const inPiece = this.pieces.length > 0;
    const texts = inPiece ? this.pieces : this.recent;
    const sizes = inPiece ? this.pieceBytes : this.recentSizes;
    const first = texts[0];
    // As many bytes as characters: all ASCII, so any index is a character boundary.
    const ascii = sizes[0] === first.length;
    const cut = ascii ? excess : charBoundaryAfter(first, excess);
    const removed = ascii ? cut : Buffer.byteLength(first.slice(0, cut), "utf8");
    texts[0] = first.slice(cut);
    sizes[0] -= removed;
    this.bytes -= removed;
    if (!inPiece) this.recentBytes -= removed;
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
