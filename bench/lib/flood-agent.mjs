#!/usr/bin/env node
// A minimal ACP agent over stdio that answers one prompt with a flood, as fast as it can write:
// FLOOD_KIND=chunks (agent_message_chunk into one message), messages (a new message every 10
// chunks), tools (tool_call + completed update pairs), malformed (lines that are not JSON-RPC,
// between chunks). FLOOD_N updates (default 200000). Then it answers end_turn. FLOOD_TIMES=<file> gets
// when the flood began, when its second half began and when it was all written.
import { writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const N = Number(process.env.FLOOD_N ?? 200_000);
const KIND = process.env.FLOOD_KIND ?? "chunks";
const out = process.stdout;
let sid = "flood-session";

function send(obj) {
  return out.write(`${JSON.stringify(obj)}\n`);
}

function line(i) {
  const update = (u) => JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: sid, update: u } });
  switch (KIND) {
    case "messages":
      return update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `word ${i} ` }, messageId: `m${Math.floor(i / 10)}` });
    case "tools":
      return i % 2 === 0
        ? update({ sessionUpdate: "tool_call", toolCallId: `t${i >> 1}`, title: `read file ${i >> 1}`, kind: "read", status: "in_progress" })
        : update({ sessionUpdate: "tool_call_update", toolCallId: `t${i >> 1}`, status: "completed" });
    case "malformed":
      return i % 2 === 0 ? `not json ${i}` : update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x " } });
    default:
      return update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `w${i % 10} ` } });
  }
}

// The flood is made before the prompt comes, so that what is timed is conch reading it, not this
// process writing JSON: a write waits for the pipe to drain, and the pipe drains as conch reads.
const chunks = [];
{
  const batch = [];
  for (let i = 0; i < N; i++) {
    batch.push(line(i));
    if (batch.length === 1000 || i === N - 1) {
      chunks.push(`${batch.join("\n")}\n`);
      batch.length = 0;
    }
  }
}

/** FLOOD_TIMES=<file>: when the flood began, when its second half began, when it was all written (ms, epoch). */
const times = {};

async function flood(id) {
  times.first = Date.now();
  for (let c = 0; c < chunks.length; c++) {
    if (c === Math.floor(chunks.length / 2)) times.half = Date.now();
    if (!out.write(chunks[c])) await new Promise((r) => out.once("drain", r));
  }
  times.written = Date.now();
  if (process.env.FLOOD_TIMES) writeFileSync(process.env.FLOOD_TIMES, JSON.stringify({ ...times, n: N, halfAt: Math.floor(chunks.length / 2) * 1000 }));
  send({ jsonrpc: "2.0", id, result: { stopReason: "end_turn" } });
}

const rl = createInterface({ input: process.stdin });
rl.on("line", (l) => {
  const msg = JSON.parse(l);
  if (msg.method === "initialize") send({ jsonrpc: "2.0", id: msg.id, result: { protocolVersion: 1, agentInfo: { name: "flood-agent", version: "1" }, agentCapabilities: {} } });
  else if (msg.method === "session/new") send({ jsonrpc: "2.0", id: msg.id, result: { sessionId: sid } });
  else if (msg.method === "session/prompt") void flood(msg.id);
  else if (msg.id !== undefined && msg.method) send({ jsonrpc: "2.0", id: msg.id, result: {} });
});
rl.on("close", () => process.exit(0));
