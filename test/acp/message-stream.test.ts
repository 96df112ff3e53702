import { PassThrough } from "node:stream";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { agentMessageStream } from "../../src/acp/message-stream.js";

/** Feeds `text` as the agent's stdout; returns the messages that reach the SDK and the lines refused. */
async function read(text: string) {
  const stdout = new PassThrough();
  const malformed: string[] = [];
  const stream = agentMessageStream(stdout, new PassThrough(), { onMalformed: (_line, error) => malformed.push(error) });
  stdout.end(text);
  const messages: AnyMessage[] = [];
  const reader = stream.readable.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    messages.push(value);
  }
  return { messages, malformed };
}

describe("the agent's message stream", () => {
  it("drops a byte order mark before a message instead of refusing the line", async () => {
    const { messages, malformed } = await read(`\uFEFF{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}\n`);
    expect(malformed).toEqual([]);
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } }]);
  });

  it("resolves drained() once what was written has reached the agent's stdin", async () => {
    const stdin = new PassThrough();
    const stream = agentMessageStream(new PassThrough(), stdin);
    const writer = stream.writable.getWriter();
    void writer.write({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } });
    void writer.write({ jsonrpc: "2.0", id: 1, result: { outcome: { outcome: "cancelled" } } });
    await stream.drained();
    const written = String(stdin.read())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(written.map((m) => m.method ?? m.result.outcome.outcome)).toEqual(["session/cancel", "cancelled"]);
  });
});

describe("reading a flood paced for a UI (paceReads)", () => {
  /** 40 reads of 50 messages, each message taking ~0.5 ms to handle; whether a timer (a key) got a turn before the last was read. */
  async function flood(paceReads: boolean) {
    const stdout = new PassThrough({ highWaterMark: 1 });
    const seen: number[] = [];
    let keyAt = -1;
    const stream = agentMessageStream(stdout, new PassThrough(), {
      paceReads,
      onMessage: (dir, msg) => {
        if (dir !== "agent") return;
        const until = performance.now() + 0.5;
        while (performance.now() < until);
        seen.push((msg as { id: number }).id);
      },
    });
    setImmediate(() => (keyAt = seen.length));
    for (let r = 0; r < 40; r++)
      stdout.write(Array.from({ length: 50 }, (_, i) => `{"jsonrpc":"2.0","id":${r * 50 + i},"result":{}}\n`).join(""));
    stdout.end();
    const reader = stream.readable.getReader();
    while (!(await reader.read()).done);
    return { seen, keyAt };
  }

  it("pauses between reads so other work runs before the flood is all read, and loses or reorders nothing", async () => {
    const paced = await flood(true);
    expect(paced.seen).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    expect(paced.keyAt).toBeGreaterThan(0);
    expect(paced.keyAt).toBeLessThan(2000);
  });

  it("print mode (no pacing) reads what is there in one go", async () => {
    const plain = await flood(false);
    expect(plain.seen).toHaveLength(2000);
    // The other work's turn came only once all was read (or after the test looked).
    expect([-1, 2000]).toContain(plain.keyAt);
  });
});
