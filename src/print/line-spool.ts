import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** How much of the spool is read back at a time. */
const READ_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/**
 * Lines appended to a file that is unlinked as soon as it is open (nothing is left behind, even by a
 * crash), read back a megabyte at a time: what a print run keeps of its finished calls holds no
 * memory. Lines the file cannot take (a full disk) are kept in memory instead, after those it holds.
 * A line holds no raw newline.
 */
export class LineSpool {
  private fd?: number;
  /** Set when the file could not be unlinked at once (Windows): removed on `close`. */
  private path?: string;
  /** Bytes of whole lines in the file. */
  private written = 0;
  private failed = false;
  /** Lines (each batch one string) the file could not take. */
  private readonly held: string[] = [];

  constructor(private readonly dir: string = tmpdir()) {}

  /** Appends `text`: whole lines, each ending with a newline. */
  append(text: string): void {
    if (!this.spool(text)) this.held.push(text);
  }

  /** The lines in order, each read back as it is asked for. */
  *lines(): Generator<string> {
    // A line at a time from the bytes: a string of a whole piece (a megabyte) would be a large
    // object, which only a full collection frees, and the result's peak would grow by the spool's size.
    for (const piece of this.pieces()) {
      let from = 0;
      for (let nl = piece.indexOf(NEWLINE); nl >= 0; nl = piece.indexOf(NEWLINE, from)) {
        yield piece.toString("utf8", from, nl);
        from = nl + 1;
      }
    }
  }

  /** The bytes a megabyte or so at a time, each piece whole lines (read before the next is asked for), then the lines held in memory. */
  *pieces(): Generator<Buffer> {
    if (this.fd !== undefined) {
      const buf = Buffer.allocUnsafe(READ_BYTES);
      let rest: Buffer = Buffer.alloc(0);
      for (let pos = 0; pos < this.written;) {
        const n = readSync(this.fd, buf, 0, Math.min(READ_BYTES, this.written - pos), pos);
        if (n <= 0) throw new Error("the spool of finished calls ended early");
        pos += n;
        const chunk = rest.length ? Buffer.concat([rest, buf.subarray(0, n)]) : buf.subarray(0, n);
        const end = chunk.lastIndexOf(NEWLINE) + 1;
        yield chunk.subarray(0, end);
        // Copied: the next read reuses `buf`.
        rest = Buffer.from(chunk.subarray(end));
      }
    }
    for (const text of this.held) yield Buffer.from(text);
  }

  /** The line of a piece that begins with `head` (only lines begin with it), or undefined. */
  static lineIn(piece: Buffer, head: string): string | undefined {
    const start = piece.indexOf(head);
    return start < 0 ? undefined : piece.toString("utf8", start, piece.indexOf(NEWLINE, start));
  }

  /** Closes the file (and removes it, where it could not be unlinked while open). */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.path) rmSync(dirname(this.path), { recursive: true, force: true });
    this.path = undefined;
  }

  /** Appends `text` to the file; false when it cannot take it (no file, a full disk). */
  private spool(text: string): boolean {
    if (this.failed || this.held.length > 0) return false;
    try {
      if (this.fd === undefined) this.open();
      const bytes = Buffer.from(text);
      for (let off = 0; off < bytes.length;) off += writeSync(this.fd!, bytes, off, bytes.length - off, this.written + off);
      this.written += bytes.length;
      return true;
    } catch {
      // What was written of this text lies past `written`: it is never read.
      this.failed = true;
      return false;
    }
  }

  private open(): void {
    const dir = mkdtempSync(join(this.dir, "conch-calls-"));
    const path = join(dir, "calls.jsonl");
    this.fd = openSync(path, "w+", 0o600);
    try {
      unlinkSync(path);
      rmdirSync(dir);
    } catch {
      this.path = path;
    }
  }
}
