#!/usr/bin/env node
// A local bridge that puts an ACP agent that speaks stdio behind a WebSocket and a streamable-HTTP
// endpoint (the SDK's experimental server transports), so `conch --agent ws://…` can be tried and
// tested. Each connection gets its own agent process; the agent's exit closes the connection.
//
//   node dist/demo/serve.js [--port N] [--host H] [-- command args…]   (default: the demo agent)
//
// It prints `ws://H:PORT` and `http://H:PORT` once it listens.
import { spawn } from "node:child_process";
import http from "node:http";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk";
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from "@agentclientprotocol/sdk/experimental/node";
import { AcpServer } from "@agentclientprotocol/sdk/experimental/server";
import { WebSocketServer } from "ws";

const split = process.argv.indexOf("--");
const own = split >= 0 ? process.argv.slice(2, split) : process.argv.slice(2);
const agentCommand = split >= 0 ? process.argv.slice(split + 1) : [process.execPath, fileURLToPath(new URL("./main.js", import.meta.url))];
const { values } = parseArgs({
  args: own,
  options: { port: { type: "string", default: "0" }, host: { type: "string", default: "127.0.0.1" } },
});

const children = new Set<ReturnType<typeof spawn>>();

/** One connection: a fresh agent process, its stdio relayed to the connection's messages both ways. */
function relay(stream: Stream): { closed: Promise<void> } {
  const child = spawn(agentCommand[0], agentCommand.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  children.add(child);
  // Node's web streams and the DOM lib's are the same at runtime but distinct types.
  const agent = ndJsonStream(
    Writable.toWeb(child.stdin) as unknown as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  // The client going away closes the agent's stdin, which ends it.
  void stream.readable.pipeTo(agent.writable).catch(() => child.stdin.destroy());
  void agent.readable.pipeTo(stream.writable).catch(() => undefined);
  const closed = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  }).finally(() => children.delete(child));
  return { closed };
}

const server = new AcpServer({ createAgent: () => ({ connect: (stream: Stream) => relay(stream) }) });
const sockets = new WebSocketServer({ noServer: true });
const httpServer = http.createServer(createNodeHttpHandler(server));
httpServer.on("upgrade", createNodeWebSocketUpgradeHandler(server, sockets));
httpServer.listen(Number(values.port), values.host, () => {
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : values.port;
  process.stdout.write(`ws://${values.host}:${port}\nhttp://${values.host}:${port}\n`);
});

const stop = (): void => {
  for (const child of children) child.kill("SIGTERM");
  void server.close();
  httpServer.close();
  sockets.close();
  setTimeout(() => process.exit(0), 500).unref();
};
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, stop);
