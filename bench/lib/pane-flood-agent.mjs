#!/usr/bin/env node
// A minimal ACP agent for the pane benchmark: every prompt runs the colour flood in a client
// terminal (terminal/create) shown as an `execute` tool call, waits for it to exit, and ends the
// turn. FLOOD_ARGS (default "--seconds 8") are passed to color-flood.mjs. FLOOD_STATS: a file the
// agent writes after each flood, { createdAt, exitedAt } (epoch ms): when it asked for the terminal,
// and when conch answered that the command had exited (by then conch's screen has parsed it all).
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { Readable, Writable } from "node:stream";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { agent, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";

const flood = path.join(path.dirname(fileURLToPath(import.meta.url)), "color-flood.mjs");
const floodArgs = (process.env.FLOOD_ARGS ?? "--seconds 8").split(" ").filter(Boolean);
let calls = 0;

const app = agent({ name: "pane-flood" })
  .onRequest(methods.agent.initialize, () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentInfo: { name: "pane-flood", title: "pane flood bench agent", version: "0" },
    agentCapabilities: {},
  }))
  .onRequest(methods.agent.session.new, () => ({ sessionId: `flood-${process.pid}` }))
  .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
    const createdAt = performance.timeOrigin + performance.now();
    const handle = await client.createTerminal({
      sessionId: params.sessionId,
      command: process.execPath,
      args: [flood, ...floodArgs],
      outputByteLimit: 64 * 1024,
    });
    const toolCallId = `flood-${++calls}`;
    const terminal = { type: "terminal", terminalId: handle.id };
    await client.notify("session/update", {
      sessionId: params.sessionId,
      update: {
        sessionUpdate: "tool_call",
        toolCallId,
        title: "colour flood",
        kind: "execute",
        status: "in_progress",
        content: [terminal],
        rawInput: { command: `node color-flood.mjs ${floodArgs.join(" ")}` },
      },
    });
    const exit = await handle.waitForExit();
    if (process.env.FLOOD_STATS)
      writeFileSync(process.env.FLOOD_STATS, JSON.stringify({ createdAt, exitedAt: performance.timeOrigin + performance.now() }));
    await client.notify("session/update", {
      sessionId: params.sessionId,
      update: { sessionUpdate: "tool_call_update", toolCallId, status: exit.exitCode === 0 ? "completed" : "failed", content: [terminal] },
    });
    await handle.release().catch(() => undefined);
    return { stopReason: "end_turn" };
  })
  .onNotification(methods.agent.session.cancel, () => {});

const output = Writable.toWeb(process.stdout);
const input = Readable.toWeb(process.stdin);
const connection = app.connect(ndJsonStream(output, input));
void connection.closed.then(() => process.exit(0));
for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(s, () => process.exit(0));
