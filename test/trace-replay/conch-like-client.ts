// A test client that sends a trace's client lines the way conch's orchestrator does, not the
// way the recorded client did: a prompt only once the previous one was answered, its open work
// settled (optionally: every display terminal got its terminal_exit) and the agent has been
// quiet for a while. Used to show that the causal replay does not deadlock on such a client.
import { isJsonObject, type JsonObject, type JsonRpcId } from "../../src/demo/trace-replay/jsonrpc.js";
import { classifyMessage } from "../../src/demo/trace-replay/jsonrpc.js";
import type { PlaceholderValues, TraceSegment } from "../../src/demo/trace-replay/load-trace.js";
import { clientIdFor, clientMessage, expectedAgentMessage, type ClientSide } from "./recorded-client.js";

export interface ConchLikeOptions {
  /** How long the agent must have sent nothing before the next prompt goes out. */
  quietMs: number;
  /** Also wait until every display terminal (`_meta.terminal_info`) has its `terminal_exit`. */
  waitForTerminals?: boolean;
}

/** One client line the driver sent, and how many agent messages had arrived by then. */
export interface SentLine {
  /** `p1`, `p2`, … for prompts; the method (or `answer <id>`) otherwise. */
  label: string;
  /** Number of agent messages received before this line was sent. */
  afterMessages: number;
}

export interface ConchLikeRun {
  sent: SentLine[];
  /** Every recorded agent line as the client should receive it (recorded order). */
  expected: JsonObject[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolve once `predicate` holds over the messages received so far. */
async function until(client: ClientSide, predicate: (messages: readonly JsonObject[]) => boolean): Promise<void> {
  const { collector } = client;
  while (!predicate(collector.messages)) await collector.waitFor(collector.messages.length + 1);
}

/** Resolve once no agent message has arrived for `ms`. */
async function quiet(client: ClientSide, ms: number): Promise<void> {
  for (;;) {
    const seen = client.collector.messages.length;
    await sleep(ms);
    if (client.collector.messages.length === seen) return;
  }
}

function isResponseTo(msg: JsonObject, id: JsonRpcId): boolean {
  return msg.id === id && msg.method === undefined && ("result" in msg || "error" in msg);
}

/** Display terminals announced and not yet exited. */
export function openTerminals(messages: readonly JsonObject[]): Set<string> {
  const open = new Set<string>();
  for (const msg of messages) {
    const params = msg.params;
    const update = isJsonObject(params) ? params.update : undefined;
    const meta = isJsonObject(update) ? update._meta : undefined;
    if (!isJsonObject(meta)) continue;
    const info = meta.terminal_info;
    const exit = meta.terminal_exit;
    if (isJsonObject(info) && typeof info.terminal_id === "string") open.add(info.terminal_id);
    if (isJsonObject(exit) && typeof exit.terminal_id === "string") open.delete(exit.terminal_id);
  }
  return open;
}

/**
 * Play the client side of `segment` like conch: requests other than prompts are sent and their
 * response awaited; each prompt waits for the previous prompt's response, (optionally) closed
 * terminals, then `quietMs` of silence; answers to agent requests go out once the request came.
 * Request ids are `clientIdFor(recorded id)`, as in recorded-client.ts.
 */
export async function playConchLike(
  segment: TraceSegment,
  client: ClientSide,
  values: PlaceholderValues,
  options: ConchLikeOptions,
): Promise<ConchLikeRun> {
  const sent: SentLine[] = [];
  const expected: JsonObject[] = [];
  let prompts = 0;
  let previousPrompt: JsonRpcId | undefined;
  for (const entry of segment.entries) {
    if (entry.dir === "agent") {
      expected.push(expectedAgentMessage(entry.msg, values));
      continue;
    }
    if (entry.dir !== "client") continue;
    const message = classifyMessage(entry.msg);
    if (!message) throw new Error(`bad client line at t=${entry.t}`);
    const send = (label: string): void => {
      sent.push({ label, afterMessages: client.collector.messages.length });
      client.send(clientMessage(entry.msg, values));
    };
    if (message.kind === "response") {
      // Answer an agent request only once it was asked.
      await until(client, (msgs) => msgs.some((m) => m.id === message.id && typeof m.method === "string"));
      send(`answer ${String(message.id)}`);
    } else if (message.kind === "notification") {
      send(message.method);
    } else if (message.method === "session/prompt") {
      const before = previousPrompt;
      if (before !== undefined) await until(client, (msgs) => msgs.some((m) => isResponseTo(m, before)));
      if (options.waitForTerminals) await until(client, (msgs) => openTerminals(msgs).size === 0);
      await quiet(client, options.quietMs);
      prompts++;
      previousPrompt = clientIdFor(message.id);
      send(`p${prompts}`);
    } else {
      const id = clientIdFor(message.id);
      send(message.method);
      await until(client, (msgs) => msgs.some((m) => isResponseTo(m, id)));
    }
  }
  await client.collector.waitFor(expected.length);
  // Nothing beyond the recorded lines may come.
  await quiet(client, options.quietMs);
  return { sent, expected };
}

/** How many agent messages had arrived when the line labelled `label` was sent. */
export function sentAfter(run: ConchLikeRun, label: string): number {
  const line = run.sent.find((s) => s.label === label);
  if (!line) throw new Error(`the driver never sent ${label}`);
  return line.afterMessages;
}
