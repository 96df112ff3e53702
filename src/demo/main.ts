#!/usr/bin/env node
// conch's built-in demo agent over stdio: `node dist/demo/main.js`.
import { Readable, Writable } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { readDemoConfig } from "./demo-config.js";
import { createDemoAgent } from "./demo-agent.js";
import { runLoginCommand } from "./demo-login.js";

if (process.argv.includes("--login")) {
  process.exit(await runLoginCommand(readDemoConfig()));
}

const demo = createDemoAgent({ config: readDemoConfig() });
// Node's web streams and the DOM lib's are the same at runtime but distinct types.
const output = Writable.toWeb(process.stdout) as unknown as WritableStream<Uint8Array>;
const input = Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
const connection = demo.app.connect(ndJsonStream(output, input));

const exitSaved = (code: number): void => {
  demo.saveAllSync();
  process.exit(code);
};
// The client closing stdin ends the session; background jobs still running are saved as unfinished.
void connection.closed.then(() => exitSaved(0));
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => exitSaved(0));
