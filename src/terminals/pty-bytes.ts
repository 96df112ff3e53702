import type { IPty } from "@lydell/node-pty";

interface DecodingState {
  decoder: unknown;
  encoding: unknown;
}

/**
 * Makes a PTY spawned with `encoding: "utf8"` hand over its output as the bytes it read, not
 * decoded: a pane's screen parses bytes, and its text was encoded again on the way there. Spawning
 * with `encoding: null` would do the same, but node-pty then also leaves the terminal's IUTF8 flag
 * off, and a program's line editing (a shell's `read`) would erase a byte of a character, not all
 * of it. node-pty has no other way: its `setEncoding(null)` no longer undoes the stream's decoding.
 * Returns false where the stream is not as expected; its output then stays text.
 */
export function readAsBytes(pty: IPty): boolean {
  const state = (pty as unknown as { _socket?: { _readableState?: DecodingState } })._socket?._readableState;
  if (!state?.decoder) return false;
  // Called right after the spawn, before the stream's first read (reads are asynchronous).
  state.decoder = null;
  state.encoding = null;
  return true;
}

/** Whether `bytes` end inside a UTF-8 sequence, whose rest a decoder waits for in the next read. */
export function endsMidCharacter(bytes: Uint8Array): boolean {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    // The lengths a lead byte announces, as Node's decoder reads them (0xf8 and up start nothing).
    const length = byte >= 0xf8 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back;
  }
  return false;
}
