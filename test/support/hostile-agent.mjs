#!/usr/bin/env node
// A hostile ACP agent for tests, speaking raw JSON-RPC over stdio. What it does on a prompt is
// chosen by the prompt's first word:
//   leak            prints every secret it was given (its env, the MCP servers' env, headers and
//                   args) to stderr and in its answer, then exits 3 with them in its last words
//   flood <bytes>   runs a client terminal (outputByteLimit 1 MiB) that prints <bytes> of output,
//                   then a last line "LAST-LINE", waits for it, and ends the turn
//   hang            streams one chunk and never answers (to be killed)
//   deep            sends a message nested 100,000 levels deep in its _meta, then answers "ok"
//   garbage <n>     writes <n> lines that are not JSON-RPC, then answers "ok"
//   anything else   answers "ok"
import { randomUUID } from "node:crypto";
import readline from "node:readline";

const send = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
const reply = (id, result) => send({ jsonrpc: "2.0", id, result });
let nextId = 1;
const waiting = new Map();
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    send({ jsonrpc: "2.0", id, method, params });
  });
const update = (sessionId, u) => send({ jsonrpc: "2.0", method: "session/update", params: { sessionId, update: u } });
const say = (sessionId, text) => update(sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

let mcpServers = [];

async function prompt(id, { sessionId, prompt: blocks }) {
  const text = blocks.map((b) => b.text ?? "").join("");
  const [word, arg] = text.trim().split(/\s+/);
  if (word === "leak") {
    const secrets = [process.env.HOSTILE_SECRET ?? ""];
    for (const s of mcpServers) {
      for (const e of s.env ?? []) secrets.push(`${e.name}=${e.value}`);
      for (const h of s.headers ?? []) secrets.push(`${h.name}: ${h.value}`);
      secrets.push(...(s.args ?? []));
    }
    secrets.push("found sk-ant-api03-LEAKEDLEAKEDLEAKED in a file");
    // Split across writes, as a real process's stderr is: a secret may straddle two chunks.
    for (const s of secrets) {
      const half = Math.floor(s.length / 2);
      process.stderr.write(s.slice(0, half));
      await new Promise((r) => setTimeout(r, 5));
      process.stderr.write(`${s.slice(half)}\n`);
    }
    say(sessionId, `here they are: ${secrets.join(" | ")}`);
    reply(id, { stopReason: "end_turn" });
    setTimeout(() => process.exit(3), 50);
    return;
  }
  if (word === "flood") {
    const bytes = Number(arg ?? 1_000_000);
    const { terminalId } = await request("terminal/create", {
      sessionId,
      command: "sh",
      args: ["-c", `head -c ${bytes} /dev/zero | tr '\\0' 'x'; echo; echo LAST-LINE`],
      outputByteLimit: 1024 * 1024,
    });
    update(sessionId, {
      sessionUpdate: "tool_call",
      toolCallId: "flood-1",
      title: "flood",
      kind: "execute",
      status: "in_progress",
      content: [{ type: "terminal", terminalId }],
    });
    await request("terminal/wait_for_exit", { sessionId, terminalId });
    const out = await request("terminal/output", { sessionId, terminalId });
    await request("terminal/release", { sessionId, terminalId });
    update(sessionId, { sessionUpdate: "tool_call_update", toolCallId: "flood-1", status: "completed" });
    say(sessionId, `the agent got ${out.output.length} bytes back`);
    reply(id, { stopReason: "end_turn" });
    return;
  }
  if (word === "deep") {
    // Built as text: JSON.stringify itself would overflow the stack on it.
    const depth = 100_000;
    const nested = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    process.stdout.write(
      `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":${JSON.stringify(sessionId)},"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"deep "},"_meta":${nested}}}}\n`,
    );
    say(sessionId, "ok");
    reply(id, { stopReason: "end_turn" });
    return;
  }
  if (word === "garbage") {
    const n = Number(arg ?? 1000);
    process.stdout.write(Array.from({ length: n }, (_, i) => `garbage line ${i}\n`).join(""));
    say(sessionId, "ok");
    reply(id, { stopReason: "end_turn" });
    return;
  }
  if (word === "hang") {
    say(sessionId, "working on it");
    return;
  }
  say(sessionId, "ok");
  reply(id, { stopReason: "end_turn" });
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.method === undefined) {
    const w = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (msg.error) w?.reject(new Error(msg.error.message));
    else w?.resolve(msg.result);
    return;
  }
  switch (msg.method) {
    case "initialize":
      reply(msg.id, {
        protocolVersion: 1,
        agentCapabilities: { loadSession: false, sessionCapabilities: { resume: {} }, mcpCapabilities: { http: true } },
        agentInfo: { name: "hostile", version: "1.0.0" },
      });
      return;
    case "session/new":
      mcpServers = msg.params.mcpServers ?? [];
      reply(msg.id, { sessionId: `hostile-${randomUUID()}` });
      return;
    case "session/resume":
      mcpServers = msg.params.mcpServers ?? [];
      reply(msg.id, {});
      return;
    case "session/prompt":
      void prompt(msg.id, msg.params).catch((err) => send({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: String(err) } }));
      return;
    case "session/cancel":
      return;
    default:
      if (msg.id !== undefined) send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: `no ${msg.method}` } });
  }
});
process.stdin.on("end", () => process.exit(0));
