import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import type { FromScreenThread, ScreenFrame, ToScreenThread } from "../../src/terminals/screen-protocol.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BUNDLED = path.join(ROOT, "dist/bundle/screen-worker.js");

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

describe("the screen worker in the bundle (what bin/conch.js runs)", () => {
  it("parses output it is sent and answers with a frame of the rows, then the flush, everything acknowledged", async () => {
    expect(existsSync(BUNDLED)).toBe(true);
    worker = new Worker(BUNDLED, { execArgv: [] });
    const messages: FromScreenThread[] = [];
    const flushed = new Promise<void>((resolve) => {
      worker!.on("message", (message: FromScreenThread) => {
        messages.push(message);
        if (message.type === "flushed") resolve();
      });
    });
    const post = (message: ToScreenThread): void => worker!.postMessage(message);
    post({ type: "open", id: 1, cols: 20, rows: 3, scrollback: 100, tailRows: 3 });
    const data = "one\r\n\x1b[32mtwo ✔\x1b[0m\r\n";
    // As UTF-8, acknowledged in the UTF-16 units the main thread counts (✔ is three bytes, one unit).
    post({ type: "write", id: 1, data: new TextEncoder().encode(data), chars: data.length });
    post({ type: "flush", id: 1, seq: 1 });
    await flushed;
    const frames = messages.filter((m): m is ScreenFrame => m.type === "frame");
    expect(frames.at(-1)?.tail).toEqual([[{ text: "one" }], [{ text: "two ✔", fg: 2 }]]);
    expect(messages.filter((m) => m.type === "parsed").reduce((n, m) => n + (m.type === "parsed" ? m.chars : 0), 0)).toBe(data.length);
  });
});
