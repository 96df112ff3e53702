#!/usr/bin/env node
// decode: ACP messages/s through conch's own connection path. ndjson bytes go into
// agentMessageStream + AgentConnection (src/acp/) in 64 KiB chunks, as a pipe delivers them, and a
// hooks object counts onUpdate. Goals: >= 100k small session/update messages/s; a 5 MB single
// message parsed and delivered in <= 50 ms. For information: the same small messages on through an
// Orchestrator (reduce + publish), and reducer throughput (events/s through `reduce`).
import { PassThrough, Writable } from "node:stream";
import { performance } from "node:perf_hooks";
import { AgentConnection } from "../dist/acp/agent-connection.js";
import { foldEvents, reduce } from "../dist/session/reduce.js";
import { initialSessionState } from "../dist/session/state.js";
import { log, metric, numOpt, parseArgs, report } from "./lib/common.mjs";
import { startOrchestrator } from "./lib/drive.mjs";
import { generateTurns } from "./lib/session-gen.mjs";

const args = parseArgs();
const RUNS = numOpt(args, "runs", 7, 3);
const SMALL = numOpt(args, "messages", 200_000, 50_000);
const BIG_BYTES = numOpt(args, "big-mb", 5) * 1024 * 1024;
const CHUNK = 64 * 1024;
const SID = "sess-0123456789";

const WORDS = ["lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "consectetur ", "adipiscing ", "elit.\n"];

function smallMessage(i) {
  return JSON.stringify({
    jsonrpc: "2.0",
    method: "session/update",
    params: {
      sessionId: SID,
      update: {
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: WORDS[i % 8] + WORDS[(i + 3) % 8] },
        messageId: "msg-1",
      },
    },
  });
}

/** Cuts bytes into pipe-sized chunks (ndjson lines straddle chunk boundaries, as they do on a pipe). */
function toChunks(text) {
  const buf = Buffer.from(text, "utf8");
  const out = [];
  for (let i = 0; i < buf.length; i += CHUNK) out.push(buf.subarray(i, i + CHUNK));
  return out;
}

const sinkStdin = () => new Writable({ write: (_c, _e, cb) => cb() });

/** Hooks that count updates and resolve when `expected` have arrived. */
function countingHooks(expected) {
  let count = 0;
  let done;
  const finished = new Promise((r) => (done = r));
  const hooks = {
    onUpdate() {
      if (++count === expected) done(performance.now());
    },
    onPermission: async () => ({ outcome: { outcome: "cancelled" } }),
    onNotice: (level, text) => {
      if (level !== "info") log(`decode: notice: ${text.slice(0, 120)}`);
    },
    root: () => "/tmp",
  };
  return { hooks, finished, count: () => count };
}

/** Time from the first byte written to the last onUpdate, for the given chunks holding `expected` updates. */
async function throughConnection(chunks, expected) {
  const stdout = new PassThrough();
  const { hooks, finished } = countingHooks(expected);
  const conn = new AgentConnection({ stdout, stdin: sinkStdin() }, hooks);
  await new Promise((r) => setImmediate(r));
  const t0 = performance.now();
  for (const c of chunks) stdout.write(c);
  const t1 = await finished;
  stdout.end();
  conn.close();
  return t1 - t0;
}

async function throughOrchestrator(chunks, expected) {
  const { orch, agent } = await startOrchestrator({ sessionId: SID });
  const stdout = new PassThrough();
  let seen = 0;
  let done;
  const finished = new Promise((r) => (done = r));
  orch.subscribe((_s, ev) => {
    if (ev?.type === "update" && ++seen === expected) done(performance.now());
  });
  orch.send("go");
  const conn = new AgentConnection({ stdout, stdin: sinkStdin() }, agent.hooks);
  await new Promise((r) => setImmediate(r));
  const t0 = performance.now();
  for (const c of chunks) stdout.write(c);
  const t1 = await finished;
  stdout.end();
  conn.close();
  return t1 - t0;
}

function bigText(bytes) {
  const line = 'The quick brown fox jumps over the lazy dog; "quoted" and a tab\there.\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}
function bigTerminalOutput(bytes) {
  const line = "\x1b[32m  ok\x1b[0m test/some/module.test.ts \x1b[2m(12 ms)\x1b[0m\r\n";
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

// ---- small messages -------------------------------------------------------------------------------
const smallText = Array.from({ length: SMALL }, (_, i) => smallMessage(i)).join("\n") + "\n";
const smallChunks = toChunks(smallText);
log(`decode: ${SMALL} small messages, ${(smallText.length / 1e6).toFixed(1)} MB, ${Math.round(smallText.length / SMALL)} bytes each`);
await throughConnection(smallChunks, SMALL); // warm-up
const smallRates = [];
for (let i = 0; i < RUNS; i++) {
  const ms = await throughConnection(smallChunks, SMALL);
  smallRates.push(SMALL / (ms / 1000));
  log(`decode: small run ${i + 1}/${RUNS}: ${ms.toFixed(0)} ms, ${Math.round(SMALL / (ms / 1000))} msgs/s`);
}
const orchN = Math.min(SMALL, args.quick ? 20_000 : 50_000);
const orchChunks = toChunks(Array.from({ length: orchN }, (_, i) => smallMessage(i)).join("\n") + "\n");
const orchRates = [];
for (let i = 0; i < Math.min(RUNS, 3); i++) {
  const ms = await throughOrchestrator(orchChunks, orchN);
  orchRates.push(orchN / (ms / 1000));
  log(`decode: + orchestrator run ${i + 1}: ${orchN} msgs in ${ms.toFixed(0)} ms`);
}

// ---- one big message ------------------------------------------------------------------------------
/** One ndjson line of about `BIG_BYTES` (the payload is sized so that the whole line is). */
function sizedLine(make) {
  let n = BIG_BYTES;
  let line = make(n);
  for (let k = 0; k < 3; k++) {
    n = Math.floor(n * (BIG_BYTES / line.length));
    line = make(n);
  }
  return `${line}\n`;
}
const bigChunk = toChunks(
  sizedLine((n) =>
    JSON.stringify({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: SID, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: bigText(n) } } },
    }),
  ),
);
const bigTerm = toChunks(
  sizedLine((n) =>
    JSON.stringify({
      jsonrpc: "2.0",
      method: "session/update",
      params: {
        sessionId: SID,
        update: {
          sessionUpdate: "tool_call_update",
          toolCallId: "call_1",
          _meta: { terminal_output: { terminal_id: "term-1", data: bigTerminalOutput(n) } },
        },
      },
    }),
  ),
);
await throughConnection(bigChunk, 1);
const bigMs = [];
const bigTermMs = [];
for (let i = 0; i < RUNS; i++) {
  bigMs.push(await throughConnection(bigChunk, 1));
  bigTermMs.push(await throughConnection(bigTerm, 1));
  log(`decode: 5 MB run ${i + 1}/${RUNS}: chunk ${bigMs[i].toFixed(1)} ms, terminal_output ${bigTermMs[i].toFixed(1)} ms`);
}
const bigMB = (bigChunk.reduce((s, c) => s + c.length, 0) / 1048576).toFixed(2);
const bigTermMB = (bigTerm.reduce((s, c) => s + c.length, 0) / 1048576).toFixed(2);

// The same 5 MB parsed by JSON.parse alone, as the floor any client pays.
const bigLine = Buffer.concat(bigChunk).toString("utf8");
const parseOnly = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  JSON.parse(bigLine);
  parseOnly.push(performance.now() - t0);
}

// ---- reducer --------------------------------------------------------------------------------------
function eventsOf(turns) {
  let at = 1_700_000_000_000;
  const evs = [{ type: "session_started", at, info: { sessionId: SID, cwd: "/tmp", agentName: "bench", origin: "new" } }];
  turns.forEach((t, i) => {
    evs.push({ type: "prompt_sent", at: ++at, turnId: `t${i + 1}`, prompt: [{ type: "text", text: t.prompt }] });
    for (const u of t.updates) evs.push({ type: "update", at: ++at, notification: { sessionId: SID, update: u } });
    evs.push({ type: "prompt_response", at: ++at, turnId: `t${i + 1}`, response: { stopReason: "end_turn" } });
    evs.push({ type: "settled", at: ++at });
  });
  return evs;
}
const mixed = eventsOf(generateTurns({ updates: args.quick ? 5_000 : 10_000 }));
const chunkOnly = eventsOf([
  {
    prompt: "go",
    updates: Array.from({ length: args.quick ? 20_000 : 50_000 }, (_, i) => ({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: WORDS[i % 8] },
      messageId: "m1",
    })),
  },
]);
const reduceMixed = [];
const reduceChunks = [];
foldEvents(mixed);
for (let i = 0; i < Math.min(RUNS, 5); i++) {
  let t0 = performance.now();
  foldEvents(mixed);
  reduceMixed.push(mixed.length / ((performance.now() - t0) / 1000));
  t0 = performance.now();
  let s = initialSessionState();
  for (const ev of chunkOnly) s = reduce(s, ev);
  reduceChunks.push(chunkOnly.length / ((performance.now() - t0) / 1000));
}

report(args, {
  bench: "decode",
  title: "ACP messages through agentMessageStream + AgentConnection (64 KiB chunks)",
  metrics: [
    metric({
      name: "small session/update msgs/s",
      unit: "msgs/s",
      values: smallRates,
      goal: { op: ">=", value: 100_000 },
      note: `${SMALL} agent_message_chunk notifications of ~${Math.round(smallText.length / SMALL)} bytes`,
    }),
    metric({ name: `5 MB agent_message_chunk (${bigMB} MiB line)`, unit: "ms", values: bigMs, goal: { op: "<=", value: 50 } }),
    metric({ name: `5 MB terminal_output _meta (${bigTermMB} MiB line)`, unit: "ms", values: bigTermMs, goal: { op: "<=", value: 50 } }),
    metric({ name: "JSON.parse alone of the 5 MB line", unit: "ms", values: parseOnly }),
    metric({
      name: "small msgs/s on through the Orchestrator",
      unit: "msgs/s",
      values: orchRates,
      note: `${orchN} chunks into one growing message: decode + reduce + publish`,
    }),
    metric({
      name: "reduce: mixed session events/s",
      unit: "events/s",
      values: reduceMixed,
      note: `${mixed.length} events (chunks, tool calls, plans, usage) over ${mixed.filter((e) => e.type === "prompt_sent").length} turns`,
    }),
    metric({
      name: "reduce: chunks into one message, events/s",
      unit: "events/s",
      values: reduceChunks,
      note: `${chunkOnly.length} events`,
    }),
  ],
  notes: [
    "conch takes session/update out of the SDK's path (intercept) so newer update kinds are not rejected: its check on that path is the JSON-RPC shape and an object `update`; the SDK's schema validation applies to requests and responses, not to these notifications",
  ],
});
