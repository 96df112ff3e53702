import type { Readable } from "node:stream";

/**
 * Call `onLine` for every non-empty line of `input` and `onClose` once when it ends, closes or
 * fails. Returns a function that stops listening.
 */
export function readLines(input: Readable, onLine: (line: string) => void, onClose: () => void): () => void {
  let buffered = "";
  let closed = false;
  const onData = (chunk: string | Buffer): void => {
    buffered += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline).replace(/\r$/, "");
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== "") onLine(line);
      newline = buffered.indexOf("\n");
    }
  };
  const onEnd = (): void => {
    if (closed) return;
    closed = true;
    // A last line without its newline is still a message.
    if (buffered.trim() !== "") onLine(buffered);
    buffered = "";
    onClose();
  };
  input.setEncoding("utf8");
  input.on("data", onData);
  input.on("end", onEnd);
  input.on("close", onEnd);
  input.on("error", onEnd);
  return () => {
    input.off("data", onData);
    input.off("end", onEnd);
    input.off("close", onEnd);
    input.off("error", onEnd);
    // A paused stdin no longer holds the event loop open.
    input.pause();
  };
}
