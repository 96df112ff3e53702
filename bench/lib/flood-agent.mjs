#!/usr/bin/env node
// A minimal ACP agent over stdio that answers each prompt with a flood of session updates, then
// end_turn. For print mode and for the TUI (bench/flood.mjs).
//
//   FLOOD_KIND     chunks (agent_message_chunk into one message; the default), words (the same, with
//                  readable numbered words and a line break every 10: what a person's screen shows),
//                  messages (a new message every 10 chunks), tools (tool_call + completed update
//                  pairs), malformed (lines that are not JSON-RPC, between chunks)
//   FLOOD_N        updates per prompt (default 200000)
//   FLOOD_SECONDS  flood for this long instead of FLOOD_N updates
//   FLOOD_RATE     updates per second, paced (default 0: as fast as the pipe takes them)
//   FLOOD_MARKER   text of one last chunk, so a screen can tell the end has been drawn
//   FLOOD_STATS    a file the agent writes after each flood: { updates, textChars, textBytes,
//                  startedAt, endedAt } (epoch ms, fractional)
//   FLOOD_TIMES    a file the agent writes after the first flood: { first, half, written, n, halfAt }
//                  (epoch ms): when it began, when the line `halfAt` was written, when all was. An
//                  unpaced flood of FLOOD_N is made before the prompt comes, so that what a reader
//                  times is its own reading, not this process making JSON: a write waits for the
//                  pipe, which drains as the reader reads (bench/throughput.mjs)
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { performance } from "node:perf_hooks";

const N = Number(process.env.FLOOD_N ?? 200_000);
const SECONDS = Number(process.env.FLOOD_SECONDS ?? 0);
const RATE = Number(process.env.FLOOD_RATE ?? 0);
const KIND = process.env.FLOOD_KIND ?? "chunks";
const MARKER = process.env.FLOOD_MARKER;
const STATS = process.env.FLOOD_STATS;
const out = process.stdout;
const sid = "flood-session";
const epochMs = () => performance.timeOrigin + performance.now();

function send(obj) {
  return out.write(`${JSON.stringify(obj)}\n`);
}

/** The text of update `i` when it is a message chunk (fixed-width words, so late chunks are no longer than early ones). */
function chunkText(i) {
  if (KIND === "words") return `w${String(i).padStart(6, "0")}${i % 10 === 9 ? "\n" : " "}`;
  if (KIND === "messages") return `word ${i} `;
  if (KIND === "malformed") return "x ";
  return `w${i % 10} `;
}

function line(i, messageId) {
  const update = (u) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: sid, update: u } });
  switch (KIND) {
    case "messages":
      return update({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: chunkText(i) },
        messageId: `m${Math.floor(i / 10)}`,
      });
    case "tools":
      return i % 2 === 0
        ? update({
            sessionUpdate: "tool_call",
            toolCallId: `t${i >> 1}`,
            title: `read file ${i >> 1}`,
            kind: "read",
            status: "in_progress",
          })
        : update({ sessionUpdate: "tool_call_update", toolCallId: `t${i >> 1}`, status: "completed" });
    case "malformed":
      return i % 2 === 0
        ? `not json ${i}`
        : update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunkText(i) } });
    default:
      return update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: chunkText(i) }, messageId });
  }
}

/** The unpaced FLOOD_N flood, made up front in writes of 1000 lines. */
const premade = [];
if (SECONDS === 0 && RATE === 0 && !MARKER) {
  for (let i = 0; i < N; i += 1000) {
    const lines = [];
    for (let j = i; j < Math.min(N, i + 1000); j++) lines.push(line(j, "flood-1"));
    premade.push(`${lines.join("\n")}\n`);
  }
}

let premadeSent = false;
async function floodPremade(id) {
  const times = { first: Date.now() };
  const half = Math.floor(premade.length / 2);
  for (let c = 0; c < premade.length; c++) {
    if (c === half) times.half = Date.now();
    if (!out.write(premade[c])) await drained();
  }
  times.written = Date.now();
  if (process.env.FLOOD_TIMES) writeFileSync(process.env.FLOOD_TIMES, JSON.stringify({ ...times, n: N, halfAt: half * 1000 }));
  send({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
}

const drained = () => new Promise((r) => out.once("drain", r));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let floods = 0;
async function flood(id) {
  const messageId = `flood-${++floods}`;
  const startedAt = epochMs();
  const t0 = performance.now();
  const deadline = SECONDS > 0 ? t0 + SECONDS * 1000 : Infinity;
  const limit = SECONDS > 0 ? Infinity : N;
  let textChars = 0;
  let textBytes = 0;
  const batch = [];
  let i = 0;
  while (i < limit && performance.now() < deadline) {
    // Paced: as many as the rate allows by now (in 10 ms steps); unpaced: batches of 1000.
    const due = RATE > 0 ? Math.min(limit, Math.floor(((performance.now() - t0) / 1000) * RATE) + 1) : Math.min(limit, i + 1000);
    for (; i < due; i++) {
      batch.push(line(i, messageId));
      if (KIND !== "tools" && !(KIND === "malformed" && i % 2 === 0)) {
        const text = chunkText(i);
        textChars += text.length;
        textBytes += Buffer.byteLength(text);
      }
    }
    if (batch.length) {
      const ok = out.write(`${batch.join("\n")}\n`);
      batch.length = 0;
      if (!ok) await drained();
    }
    if (RATE > 0) await sleep(10);
  }
  if (MARKER) {
    send({
      jsonrpc: "2.0",
      method: "session/update",
      params: { sessionId: sid, update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: MARKER }, messageId } },
    });
    textChars += MARKER.length;
    textBytes += Buffer.byteLength(MARKER);
  }
  const endedAt = epochMs();
  send({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
  if (STATS) writeFileSync(STATS, JSON.stringify({ updates: i, textChars, textBytes, startedAt, endedAt }));
}

const rl = createInterface({ input: process.stdin });
rl.on("line", (l) => {
  let msg;
  try {
    msg = JSON.parse(l);
  } catch {
    return;
  }
  if (msg.method === "initialize")
    send({
      jsonrpc: "2.0",
      id: msg.id,
      result: { protocolVersion: 1, agentInfo: { name: "flood-agent", version: "1" }, agentCapabilities: {} },
    });
  else if (msg.method === "session/new") send({ jsonrpc: "2.0", id: msg.id, result: { sessionId: sid } });
  else if (msg.method === "session/prompt")
    void (premade.length && !premadeSent ? ((premadeSent = true), floodPremade(msg.id)) : flood(msg.id));
  else if (msg.id !== undefined && msg.method) send({ jsonrpc: "2.0", id: msg.id, result: {} });
});
rl.on("close", () => process.exit(0));
