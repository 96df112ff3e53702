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
