import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { errorCode } from "./private-fs.js";

/** How much of a log one read takes. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** Opens a log for reading; a missing one is an error that says the session cannot be restored. */
export function openLog(path: string): number {
  try {
    return openSync(path, "r");
  } catch (error) {
    if (errorCode(error) === "ENOENT") {
      throw new Error(`No session log at ${path}; the session cannot be restored.`, { cause: error });
    }
    throw error;
  }
}

/**
 * Calls `onLine` for each line of the file at `path`, reading it a chunk at a time so a log larger
 * than the biggest string V8 allows still reads. `terminated` is false only for a last line with
 * no newline after it.
 */
export function forEachLogLine(path: string, onLine: (line: string, terminated: boolean) => void): void {
  for (const _ of logLineSteps(path, onLine)) continue;
}

/** `forEachLogLine`, one step per chunk read. */
export function* logLineSteps(
  path: string,
  onLine: (line: string, terminated: boolean) => void,
  chunkBytes = READ_CHUNK_BYTES,
): Generator<void, void> {
  const fd = openLog(path);
  try {
    const decoder = new StringDecoder("utf8");
    const buf = Buffer.alloc(chunkBytes);
    let parts: string[] = [];
    const feed = (text: string) => {
      let from = 0;
      let nl = text.indexOf("\n");
      while (nl >= 0) {
        parts.push(text.slice(from, nl));
        onLine(parts.length === 1 ? parts[0] : parts.join(""), true);
        parts = [];
        from = nl + 1;
        nl = text.indexOf("\n", from);
      }
      if (from < text.length) parts.push(text.slice(from));
    };
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) break;
      feed(decoder.write(buf.subarray(0, n)));
      yield;
    }
    feed(decoder.end());
    if (parts.length) onLine(parts.join(""), false);
  } finally {
    closeSync(fd);
  }
}
