// A minimal hand-written JSON-RPC client for the replay agent tests: it plays the recorded
// client lines of a trace segment over in-memory streams and collects what the agent sends.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import { classifyMessage, withId, type JsonObject, type JsonRpcId } from "../../src/demo/trace-replay/jsonrpc.js";
import { substitutePlaceholders, type PlaceholderValues, type Trace, type TraceSegment } from "../../src/demo/trace-replay/load-trace.js";
import { runReplayAgent } from "../../src/demo/trace-replay/replay-agent.js";
import type { ReplayAgentHandle, ReplayAgentOptions, ReplayLogEntry } from "../../src/demo/trace-replay/replay-contract.js";

export const TRACES_DIR = process.env.CONCH_TRACES_DIR ?? "/work/shared/traces";

/** Every trace file, as paths relative to TRACES_DIR, sorted. */
export function traceFiles(): string[] {
  return readdirSync(TRACES_DIR, { withFileTypes: true })
    .filter((dir) => dir.isDirectory())
    .flatMap((dir) =>
      readdirSync(join(TRACES_DIR, dir.name))
        .filter((name) => name.endsWith(".jsonl"))
        .map((name) => `${dir.name}/${name}`),
    )
    .sort();
}

/** Placeholder values with a `.` in the project path, so `${PROJECT_ESCAPED}` is exercised. */
export const TEST_VALUES: PlaceholderValues = {
  project: "/srv/work/conch.test-project",
  home: "/home/tester",
  tmpdir: "/var/tmp/replay",
};

/** The id the test client uses for a recorded client request id: different, to prove re-keying. */
export function clientIdFor(recorded: JsonRpcId): JsonRpcId {
  return typeof recorded === "number" ? 1000 + recorded * 7 : `client-${recorded}`;
}

/** Collects the agent's stdout lines, raw and parsed. */
export class OutputCollector {
  readonly lines: string[] = [];
  readonly messages: JsonObject[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];
  private buffered = "";

  constructor(stream: Readable) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      this.buffered += chunk;
      let newline = this.buffered.indexOf("\n");
      while (newline >= 0) {
        this.push(this.buffered.slice(0, newline));
        this.buffered = this.buffered.slice(newline + 1);
        newline = this.buffered.indexOf("\n");
      }
    });
  }

  /** Resolves once at least `count` messages have arrived. */
  waitFor(count: number): Promise<void> {
    if (this.messages.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** Message number `index` (from 0), once it has arrived. */
  async nth(index: number): Promise<JsonObject> {
    await this.waitFor(index + 1);
    return this.messages[index];
  }

  private push(line: string): void {
    this.lines.push(line);
    this.messages.push(JSON.parse(line) as JsonObject);
    const ready = this.waiters.filter((w) => this.messages.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.messages.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }
}

/** The two ends a test client needs: a way to write to the agent and what it wrote back. */
export interface ClientSide {
  collector: OutputCollector;
  send(msg: JsonObject): void;
}

/** A replay agent on in-memory streams, with its output and logs captured. */
export interface Harness extends ClientSide {
  agent: ReplayAgentHandle;
  input: PassThrough;
  output: PassThrough;
  logs: ReplayLogEntry[];
}

/** Start a replay agent in-process; defaults: no delays, TEST_VALUES placeholders. */
export function startReplay(trace: Trace, options: Partial<ReplayAgentOptions> = {}): Harness {
  const input = new PassThrough();
  const output = new PassThrough();
  const logs: ReplayLogEntry[] = [];
  const agent = runReplayAgent(trace, {
    speed: Number.POSITIVE_INFINITY,
    home: TEST_VALUES.home,
    tmpdir: TEST_VALUES.tmpdir,
    log: (entry) => logs.push(entry),
    ...options,
    input,
    output,
  });
  const collector = new OutputCollector(output);
  return { agent, input, output, collector, logs, send: (msg) => input.write(`${JSON.stringify(msg)}\n`) };
}

/** A recorded client line as the test client sends it: placeholders filled, request ids changed. */
export function clientMessage(msg: JsonObject, values: PlaceholderValues): JsonObject {
  const message = classifyMessage(msg);
  const filled = substitutePlaceholders(msg, values);
  return message?.kind === "request" ? withId(filled, clientIdFor(message.id)) : filled;
}

/** A recorded agent line as the client should receive it: placeholders filled, response ids re-keyed. */
export function expectedAgentMessage(msg: JsonObject, values: PlaceholderValues): JsonObject {
  const message = classifyMessage(msg);
  const filled = substitutePlaceholders(msg, values);
  return message?.kind === "response" ? withId(filled, clientIdFor(message.id)) : filled;
}

/**
 * Act as the recorded client of `segment`. `paced`: send each client line only after every
 * agent line recorded before it has arrived; otherwise send all client lines at once (the agent
 * must buffer them). Returns the agent messages the client should have received, in order.
 */
export async function playRecordedClient(
  segment: TraceSegment,
  client: ClientSide,
  values: PlaceholderValues,
  paced: boolean,
): Promise<JsonObject[]> {
  const expected: JsonObject[] = [];
  for (const entry of segment.entries) {
    if (entry.dir === "agent") {
      expected.push(expectedAgentMessage(entry.msg, values));
    } else if (entry.dir === "client") {
      if (paced) await client.collector.waitFor(expected.length);
      client.send(clientMessage(entry.msg, values));
    }
  }
  await client.collector.waitFor(expected.length);
  return expected;
}

/** Whether `promise` settles within `ms`: for "this must not happen" checks only. */
export async function settlesSoon(promise: Promise<unknown>, ms = 50): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, ms));
  return settled;
}
