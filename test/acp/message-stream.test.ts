import { PassThrough } from "node:stream";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { agentMessageStream, MAX_MESSAGE_DEPTH, nestingDepth } from "../../src/acp/message-stream.js";

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

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("the agent's message stream", () => {
  it("drops a byte order mark before a message instead of refusing the line", async () => {
    const { messages, malformed } = await read(`\uFEFF{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}\n`);
    expect(malformed).toEqual([]);
    expect(messages).toEqual([{ jsonrpc: "2.0", id: 0, result: { protocolVersion: 1 } }]);
  });

  it("refuses a line nested 100k levels deep as malformed, and goes on with the next one", async () => {
    const deep = `{"jsonrpc":"2.0","method":"session/update","params":{"_meta":${nested(100_000)}}}`;
    const { messages, malformed } = await read(`${deep}\n{"jsonrpc":"2.0","method":"ok"}\n`);
    expect(malformed).toEqual([`nested deeper than ${MAX_MESSAGE_DEPTH} levels`]);
    expect(messages).toEqual([{ jsonrpc: "2.0", method: "ok" }]);
  });

  it("lets a message exactly at the depth limit through", async () => {
    const line = `{"jsonrpc":"2.0","method":"m","params":{"a":${nested(MAX_MESSAGE_DEPTH - 2)}}}`;
    expect(nestingDepth(line)).toBe(MAX_MESSAGE_DEPTH);
    const { messages, malformed } = await read(`${line}\n`);
    expect(malformed).toEqual([]);
    expect(messages).toHaveLength(1);
  });

  it("counts nesting outside strings only", () => {
    const brackets = "[".repeat(5000);
    expect(nestingDepth(`{"text":"${brackets}","q":"\\"${brackets}"}`)).toBe(1);
    expect(nestingDepth(`{"a":${nested(1500)}}`)).toBeGreaterThan(MAX_MESSAGE_DEPTH);
  });

  it("resolves drained() once what was written has reached the agent's stdin", async () => {
    const stdin = new PassThrough();
    const stream = agentMessageStream(new PassThrough(), stdin);
    const writer = stream.writable.getWriter();
    void writer.write({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: "s" } });
    void writer.write({ jsonrpc: "2.0", id: 1, result: { outcome: { outcome: "cancelled" } } });
    await stream.drained();
    const written = String(stdin.read()).trim().split("\n").map((l) => JSON.parse(l));
    expect(written.map((m) => m.method ?? m.result.outcome.outcome)).toEqual(["session/cancel", "cancelled"]);
  });
});
