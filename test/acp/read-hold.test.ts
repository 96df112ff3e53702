import { PassThrough } from "node:stream";
import type { AnyMessage } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { agentMessageStream, tappedMessageStream } from "../../src/acp/message-stream.js";

const update = (i: number) => `{"jsonrpc":"2.0","method":"session/update","params":{"n":${i}}}\n`;
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const numberOf = (msg: AnyMessage) => (msg as { params: { n: number } }).params.n;

/** A consumer behind (print mode's stdout over its mark, a slow reader): each hold waits until `release`. */
function slowConsumer() {
  const holds: (() => void)[] = [];
  let behind = true;
  return {
    holdReads: () => (behind ? new Promise<void>((resolve) => holds.push(resolve)) : undefined),
    release(caughtUp: boolean) {
      behind = !caughtUp;
      for (const r of holds.splice(0)) r();
    },
    get holding() {
      return holds.length;
    },
  };
}

describe("reading the agent while its consumer is behind", () => {
  it("pauses after a read, resumes when the consumer catches up, and hands on every message in order", async () => {
    const stdout = new PassThrough();
    const seen: number[] = [];
    const consumer = slowConsumer();
    agentMessageStream(stdout, new PassThrough(), {
      holdReads: consumer.holdReads,
      intercept: (msg: AnyMessage) => (seen.push((msg as { params: { n: number } }).params.n), true),
    });
    stdout.write(update(0) + update(1));
    await nextTurn();
    expect(seen).toEqual([0, 1]);
    expect(stdout.isPaused()).toBe(true);
    expect(consumer.holding).toBe(1);
    // What the agent writes now waits in its pipe.
    stdout.write(update(2));
    await nextTurn();
    expect(seen).toEqual([0, 1]);

    consumer.release(false);
    await nextTurn();
    // Read, and held again: the consumer is still behind.
    expect(seen).toEqual([0, 1, 2]);
    expect(stdout.isPaused()).toBe(true);

    stdout.write(update(3));
    consumer.release(true);
    await nextTurn();
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(stdout.isPaused()).toBe(false);
    stdout.write(update(4));
    await nextTurn();
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });

  it("reads what the agent wrote before it exited, even while the consumer is behind", async () => {
    const stdout = new PassThrough();
    const seen: number[] = [];
    const consumer = slowConsumer();
    let exit!: () => void;
    const gone = new Promise<void>((resolve) => (exit = resolve));
    const stream = agentMessageStream(
      stdout,
      new PassThrough(),
      { holdReads: consumer.holdReads, intercept: (msg: AnyMessage) => (seen.push((msg as { params: { n: number } }).params.n), true) },
      gone,
    );
    stdout.write(update(0));
    await nextTurn();
    expect(stdout.isPaused()).toBe(true);
    stdout.end(update(1) + update(2));
    exit();
    const reader = stream.readable.getReader();
    expect((await reader.read()).done).toBe(true);
    expect(seen).toEqual([0, 1, 2]);
  });

  it("a remote agent's messages (a stream the SDK frames) wait in that stream while the consumer is behind", async () => {
    const N = 40;
    let pulled = 0;
    const inner = {
      readable: new ReadableStream<AnyMessage>(
        {
          pull(controller) {
            if (pulled === N) controller.close();
            else controller.enqueue(JSON.parse(update(pulled++)) as AnyMessage);
          },
        },
        { highWaterMark: 0 },
      ),
      writable: new WritableStream<AnyMessage>(),
    };
    const seen: number[] = [];
    const consumer = slowConsumer();
    // Odd numbers go on to the SDK, even ones are taken (as conch takes `session/update`).
    const stream = tappedMessageStream(inner, {
      holdReads: consumer.holdReads,
      intercept: (msg) => (seen.push(numberOf(msg)), numberOf(msg) % 2 === 0),
    });
    const passed: number[] = [];
    const reader = stream.readable.getReader();
    const reading = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) passed.push(numberOf(r.value));
    })();
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(seen).toEqual([0]);
    // The rest stays with the remote stream (at most a message or two in the pipe between).
    expect(pulled).toBeLessThanOrEqual(3);

    consumer.release(false);
    for (let i = 0; i < 5; i++) await nextTurn();
    expect(seen).toEqual([0, 1]);
    expect(passed).toEqual([1]);
    expect(pulled).toBeLessThanOrEqual(4);

    consumer.release(true);
    await reading;
    const all = Array.from({ length: N }, (_, i) => i);
    expect(seen).toEqual(all);
    expect(passed).toEqual(all.filter((i) => i % 2 === 1));
  });
});
