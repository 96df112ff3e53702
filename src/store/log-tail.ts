import { closeSync, fstatSync, openSync, readSync, watch, type FSWatcher } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { assertReadable, NewerLogError, parseHeader } from "./log-format.js";
import { looksLikeEvent } from "./session-log.js";

/** How often the file is looked at besides the change notifications, which some file systems never send. */
const POLL_MS = 500;
const READ_CHUNK_BYTES = 1024 * 1024;

/** What a tail reports besides events. */
export interface LogTailHooks<T> {
  onEvents(events: T[]): void;
  /** The file is gone or cannot be read any more (the session was deleted). */
  onGone?(reason: string): void;
}

/**
 * Follows an append-only JSONL log as another process writes it: everything there now, then each
 * line appended, in order. Read only: the file is opened `r`, never locked, never written. Only
 * whole lines are taken: the writer appends one line per write, and a line still being written
 * waits for its newline.
 */
export class LogTail<T extends object> {
  private fd: number | undefined;
  private offset = 0;
  private readonly decoder = new StringDecoder("utf8");
  private partial = "";
  private watcher?: FSWatcher;
  private poll?: NodeJS.Timeout;
  private closed = false;
  /** The first line was seen (the format header, or the first event of an unversioned log). */
  private firstLineSeen = false;
  /** Lines that were not events (a corrupt line); they are skipped, as a resume skips them. */
  skipped = 0;

  constructor(
    private readonly path: string,
    private readonly hooks: LogTailHooks<T>,
    private readonly isEvent: (value: unknown) => value is T = looksLikeEvent as (value: unknown) => value is T,
  ) {}

  /**
   * Reads what the log holds now (reported at once, before this returns), then follows it. Throws
   * when it cannot be opened, or (a NewerLogError) when it is in a newer format than this conch reads.
   */
  start(): void {
    this.fd = openSync(this.path, "r");
    try {
      this.read();
    } catch (err) {
      this.close();
      throw err;
    }
    try {
      this.watcher = watch(this.path, { persistent: false }, () => this.readNew());
      this.watcher.on("error", () => undefined);
    } catch {
      // No notifications here: the poll alone follows the file.
    }
    this.poll = setInterval(() => this.readNew(), POLL_MS);
  }

  /** Reads and reports the lines appended since the last read. */
  readNew(): void {
    try {
      this.read();
    } catch (err) {
      if (!(err instanceof NewerLogError)) throw err;
      this.gone(err.message);
    }
  }

  private read(): void {
    if (this.closed || this.fd === undefined) return;
    let size: number;
    let deleted: boolean;
    try {
      const stat = fstatSync(this.fd);
      size = stat.size;
      deleted = stat.nlink === 0;
    } catch (err) {
      return this.gone(`the session log cannot be read: ${(err as Error).message}`);
    }
    if (size < this.offset) return this.gone("the session log was cut short: it is no longer the one being followed");
    const events: T[] = [];
    const buf = Buffer.alloc(Math.min(READ_CHUNK_BYTES, Math.max(1, size - this.offset)));
    while (this.offset < size) {
      const n = readSync(this.fd, buf, 0, Math.min(buf.length, size - this.offset), this.offset);
      if (n === 0) break;
      this.offset += n;
      this.take(this.decoder.write(buf.subarray(0, n)), events);
    }
    if (events.length) this.hooks.onEvents(events);
    if (deleted) this.gone("the session was deleted");
  }

  private take(text: string, out: T[]): void {
    const lines = (this.partial + text).split("\n");
    this.partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.trim() === "") continue;
      if (!this.firstLineSeen) {
        this.firstLineSeen = true;
        const header = parseHeader(line);
        assertReadable(this.path, header);
        if (header) continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        this.skipped++;
        continue;
      }
      if (this.isEvent(value)) out.push(value);
      else this.skipped++;
    }
  }

  private gone(reason: string): void {
    this.close();
    this.hooks.onGone?.(reason);
  }

  /** Stops following and closes the file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.watcher?.close();
    clearInterval(this.poll);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
