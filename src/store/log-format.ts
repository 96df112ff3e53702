/**
 * The session log's format version. A log starts with a header line `{"conch_log":N}` (no `type`,
 * so no event reader mistakes it for an event); a log with no header is version 0, the format
 * conch 0.1 wrote. Version 1 adds only the header: its events are version 0's, so this conch reads
 * both and appends to both. Raise it when an event changes meaning.
 */
export const LOG_FORMAT = 1;

/** The first line of a versioned log. */
export interface LogHeader {
  conch_log: number;
}

/** The header line (without its newline) a new log starts with. */
export function headerLine(): string {
  return JSON.stringify({ conch_log: LOG_FORMAT } satisfies LogHeader);
}

/** The header a log's first line holds, or undefined when that line is an event (an unversioned log). */
export function parseHeader(line: string): LogHeader | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || "type" in value) return undefined;
  const version = (value as { conch_log?: unknown }).conch_log;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) return undefined;
  return { conch_log: version };
}

/** A log written in a format newer than this conch reads; its message is for the user. */
export class NewerLogError extends Error {
  constructor(
    readonly path: string,
    readonly version: number,
  ) {
    super(
      `the session log ${path} was written by a newer conch (log format ${version}); this conch reads format ${LOG_FORMAT} and older: update conch to open it`,
    );
  }
}

/** Throws a NewerLogError when `header` says the log at `path` is newer than this conch reads. */
export function assertReadable(path: string, header: LogHeader | undefined): void {
  if (header && header.conch_log > LOG_FORMAT) throw new NewerLogError(path, header.conch_log);
}
