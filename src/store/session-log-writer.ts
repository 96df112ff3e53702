import { closeSync, fstatSync, fsyncSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { capDepth } from "./json-depth.js";
import { assertReadable, headerLine, parseHeader } from "./log-format.js";
import { fsyncDirSync, openPrivateFileSync, writeAllSync } from "./private-fs.js";
import { ensureStateDir, resolveStateDir, sessionLogPath } from "./state-dir.js";

/** The two system calls a log writer makes, replaceable to play a full disk in tests. */
export interface LogWriterIo {
  writeAll(fd: number, data: string): void;
  fsync(fd: number): void;
}

/**
 * Appends a session's events to its JSONL log, one line per event, in call order.
 *
 * Each append is handed to the kernel at once (one `write` on an O_APPEND fd), so a crash of
 * conch itself loses nothing already appended and ordering needs no queue; `sync()` adds the
 * fsync that also survives a power cut, and is what callers pay for at turn boundaries.
 */
export class SessionLogWriter<T extends object> {
  private fd: number | undefined;
  private needsDirSync: boolean;
  /** A write failed (a full disk) and may have left half a line: the next one starts a new line. */
  private afterFailedWrite = false;

  private constructor(
    /** The log file this writer appends to. */
    readonly path: string,
    fd: number,
    created: boolean,
    private readonly io: LogWriterIo,
  ) {
    this.fd = fd;
    this.needsDirSync = created;
  }

  /**
   * Open (or create, 0600) the log at `path` for appending; its folder must exist. A new log gets
   * the format header first; an existing one in a newer format is refused (a NewerLogError), as
   * appending older events to it would corrupt it. `io` replaces the writes and fsyncs, for tests
   * that play a full disk.
   */
  static open<T extends object>(path: string, io: Partial<LogWriterIo> = {}): SessionLogWriter<T> {
    const fd = openPrivateFileSync(path, "a+");
    let created: boolean;
    try {
      const size = fstatSync(fd).size;
      created = size === 0;
      if (created) writeAllSync(fd, `${headerLine()}\n`);
      else assertReadable(path, parseHeader(firstLine(fd, size)));
      // A crash may have left half a line at the end. Without a newline our first event would
      // be glued to it and both lost; with one, the reader skips just the fragment.
      if (size > 0 && !endsWithNewline(fd, size)) writeAllSync(fd, "\n");
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return new SessionLogWriter<T>(path, fd, created, { writeAll: writeAllSync, fsync: fsyncSync, ...io });
  }

  /** Append one event; it reaches the kernel before this returns. */
  append(event: T): void {
    const fd = this.openFd();
    let line: string | undefined;
    try {
      line = serialize(event);
    } catch (error) {
      throw new Error(`Cannot record a session event of type ${describeType(event)}: ${String(error)}`, {
        cause: error,
      });
    }
    if (line === undefined) {
      throw new Error(`Cannot record a session event of type ${describeType(event)}: not JSON`);
    }
    try {
      // A blank line is skipped by the reader; a line glued to a torn one would be lost with it.
      this.io.writeAll(fd, this.afterFailedWrite ? `\n${line}\n` : `${line}\n`);
      this.afterFailedWrite = false;
    } catch (error) {
      this.afterFailedWrite = true;
      throw error;
    }
  }

  /**
   * Appends several events with one write (a burst of updates). An event that cannot be serialized
   * is left out and returned; a failed write throws, as `append` does.
   */
  appendAll(events: readonly T[]): { event: T; error: Error }[] {
    const fd = this.openFd();
    const skipped: { event: T; error: Error }[] = [];
    const lines: string[] = [];
    for (const event of events) {
      try {
        const line = serialize(event);
        if (line === undefined) throw new Error("not JSON");
        lines.push(line);
      } catch (error) {
        skipped.push({
          event,
          error: new Error(`Cannot record a session event of type ${describeType(event)}: ${String(error)}`, { cause: error }),
        });
      }
    }
    if (lines.length === 0) return skipped;
    const text = `${lines.join("\n")}\n`;
    try {
      this.io.writeAll(fd, this.afterFailedWrite ? `\n${text}` : text);
      this.afterFailedWrite = false;
    } catch (error) {
      this.afterFailedWrite = true;
      throw error;
    }
    return skipped;
  }

  /** Make everything appended so far durable (fsync). */
  sync(): void {
    const fd = this.openFd();
    this.io.fsync(fd);
    if (this.needsDirSync) {
      // A new file's directory entry must be synced too, or a power cut can lose the file.
      fsyncDirSync(dirname(this.path));
      this.needsDirSync = false;
    }
  }

  /** Sync and close the log; further appends throw. Closing twice is harmless. */
  close(): void {
    if (this.fd === undefined) return;
    try {
      this.sync();
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private openFd(): number {
    if (this.fd === undefined) throw new Error(`The session log ${this.path} is already closed.`);
    return this.fd;
  }
}

/** Open the log of session `id` under the state dir for appending, creating dirs as needed. */
export function openSessionLog<T extends object>(id: string, root: string = resolveStateDir()): SessionLogWriter<T> {
  ensureStateDir(root);
  return SessionLogWriter.open<T>(sessionLogPath(id, root));
}

/** Longest first line read to look for a header; a header is far shorter, an event may be longer. */
const HEADER_PROBE_BYTES = 4096;

/** The start of the file's first line (at most HEADER_PROBE_BYTES). */
function firstLine(fd: number, size: number): string {
  const buf = Buffer.alloc(Math.min(size, HEADER_PROBE_BYTES));
  const n = readSync(fd, buf, 0, buf.length, 0);
  const text = buf.subarray(0, n).toString("utf8");
  const nl = text.indexOf("\n");
  return nl >= 0 ? text.slice(0, nl) : text;
}

function endsWithNewline(fd: number, size: number): boolean {
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** Nesting a log keeps; deeper parts of a hostile message become a marker instead of losing the event. */
const MAX_EVENT_DEPTH = 200;

function serialize(event: object): string | undefined {
  try {
    return JSON.stringify(event);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return JSON.stringify(capDepth(event, MAX_EVENT_DEPTH));
  }
}

function describeType(event: object): string {
  const type = (event as { type?: unknown }).type;
  return typeof type === "string" ? `"${type}"` : "(unknown)";
}
