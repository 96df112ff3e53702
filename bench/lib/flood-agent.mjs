#!/usr/bin/env node
// A minimal ACP agent over stdio that answers one prompt with a flood, as fast as it can write:
// FLOOD_KIND=chunks (agent_message_chunk into one message), messages (a new message every 10
// chunks), tools (tool_call + completed update pairs), malformed (lines that are not JSON-RPC,
// between chunks). FLOOD_N updates (default 200000). Then it answers end_turn.
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

async function flood(id) {
  const batch = [];
  for (let i = 0; i < N; i++) {
    batch.push(line(i));
    if (batch.length === 1000) {
      if (!out.write(`${batch.join("\n")}\n`)) await new Promise((r) => out.once("drain", r));
      batch.length = 0;
    }
  }
  if (batch.length) out.write(`${batch.join("\n")}\n`);
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
