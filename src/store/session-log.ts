import { closeSync, readSync } from "node:fs";
import { assertReadable, parseHeader } from "./log-format.js";
import { logLineSteps, openLog, READ_CHUNK_BYTES } from "./log-lines.js";

// The log's writing and its chunked line reading live beside it; importers keep one module.
export { openSessionLog, SessionLogWriter, type LogWriterIo } from "./session-log-writer.js";
export { forEachLogLine } from "./log-lines.js";

/** The events recovered from a log, and how many lines were unusable. */
export interface SessionLogContents<T> {
  events: T[];
  /** The log's format version (`log-format.ts`): 0 for a log with no header. */
  version: number;
  /** Lines that were not a valid event (a torn last line included); they are left out. */
  skipped: number;
  /** The last line was cut short, as after a crash mid-write. */
  tornTail: boolean;
}

/** Whether a parsed line is an event: a plain object with a string `type`. */
export function looksLikeEvent(value: unknown): value is { type: string } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === "string";
}

/**
 * Read every event of the log at `path`. A torn last line or a corrupt line anywhere is
 * skipped and counted, never fatal: a damaged log still resumes with what survived. A log in a
 * newer format than this conch reads throws a NewerLogError, whose message is for the user.
 */
export function readSessionLog<T extends object>(
  path: string,
  isEvent: (value: unknown) => value is T = looksLikeEvent as (value: unknown) => value is T,
): SessionLogContents<T> {
  const steps = readSessionLogInSteps(path, isEvent);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Lines a reader leaves unparsed (`skips`), told of each event it reads (`read`). */
export interface LineFilter<T> {
  skips(line: string): boolean;
  read(event: T): void;
}

/**
 * `readSessionLog` a chunk of `chunkBytes` at a time: each step yields the events of one chunk, so
 * a caller can let other work run between them; it returns what `readSessionLog` does. Lines that
 * `filter` skips are neither events nor counted as unusable.
 */
export function* readSessionLogInSteps<T extends object>(
  path: string,
  isEvent: (value: unknown) => value is T = looksLikeEvent as (value: unknown) => value is T,
  chunkBytes = READ_CHUNK_BYTES,
  filter?: LineFilter<T>,
): Generator<T[], SessionLogContents<T>> {
  const events: T[] = [];
  let skipped = 0;
  let tornTail = false;
  let version: number | undefined;
  const lines = logLineSteps(
    path,
    (line, terminated) => {
      if (line.trim() === "") return;
      if (version === undefined) {
        const header = parseHeader(line);
        assertReadable(path, header);
        version = header?.conch_log ?? 0;
        if (header) return;
      }
      if (terminated && filter?.skips(line)) return;
      const value = parseLine(line);
      if (value !== undefined && isEvent(value)) {
        // An unterminated line that still parses was fully written but for its newline: keep it.
        events.push(value);
        filter?.read(value);
        return;
      }
      skipped++;
      if (!terminated) tornTail = true;
    },
    chunkBytes,
  );
  let yielded = 0;
  for (const _ of lines) {
    yield events.slice(yielded);
    yielded = events.length;
  }
  // The last line, when it had no newline, is read after the last chunk.
  if (events.length > yielded) yield events.slice(yielded);
  return { events, version: version ?? 0, skipped, tornTail };
}

/**
 * Throws what `readSessionLog` would throw before reading any event (no log, a log in a newer
 * format), reading only the log's first line: a resume can refuse at once and read the rest later.
 */
export function checkSessionLog(path: string): void {
  const fd = openLog(path);
  try {
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf
      .subarray(0, n)
      .toString("utf8")
      .split("\n")
      .find((line) => line.trim() !== "");
    if (first !== undefined) assertReadable(path, parseHeader(first));
  } finally {
    closeSync(fd);
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}
