import type { FileHandle } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";

/** Which lines of a file to return: `limit` lines from the 1-based `line`; both optional. */
export interface LineWindow {
  line?: number | null;
  limit?: number | null;
}

/** The read returned more than its cap allows; `bytes` is how far it had got. */
export class ReadTooLargeError extends Error {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(`more than ${maxBytes} bytes`);
  }
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads `window` of an open file as UTF-8, chunk by chunk: the file is never held whole, reading
 * stops at the window's last line, and text beyond `maxBytes` (UTF-8 bytes returned) throws
 * {@link ReadTooLargeError}. The result is the window's lines joined by "\n", as
 * `text.split("\n").slice(line - 1, line - 1 + limit).join("\n")` would give.
 */
export async function readLineWindow(handle: FileHandle, window: LineWindow, maxBytes: number): Promise<string> {
  const start = Math.max(0, (window.line ?? 1) - 1);
  const end = window.limit == null ? Infinity : start + Math.max(0, window.limit);
  if (end <= start) return "";
  const decoder = new StringDecoder("utf8");
  const buf = Buffer.alloc(CHUNK_BYTES);
  const out: string[] = [];
  let outBytes = 0;
  let lineNo = 0;
  const take = (text: string): void => {
    outBytes += Buffer.byteLength(text, "utf8");
    if (outBytes > maxBytes) throw new ReadTooLargeError(outBytes, maxBytes);
    out.push(text);
  };
  const feed = (text: string): void => {
    let from = 0;
    while (lineNo < end && from <= text.length) {
      const nl = text.indexOf("\n", from);
      const piece = nl < 0 ? text.slice(from) : text.slice(from, nl);
      if (lineNo >= start && piece) take(piece);
      if (nl < 0) return;
      // The newline belongs to the output only between two lines that are both in the window.
      if (lineNo >= start && lineNo + 1 < end) take("\n");
      lineNo++;
      from = nl + 1;
    }
  };
  for (;;) {
    const { bytesRead } = await handle.read(buf, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) break;
    feed(decoder.write(buf.subarray(0, bytesRead)));
    if (lineNo >= end) return out.join("");
  }
  feed(decoder.end());
  return out.join("");
}
