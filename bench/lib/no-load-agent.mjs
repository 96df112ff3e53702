#!/usr/bin/env node
// An agent that cannot load or resume sessions: conch's demo agent behind a stdio proxy that takes
// `loadSession` and `sessionCapabilities.resume` out of its `initialize` answer. Everything else
// passes through untouched. Used to measure `conch --resume` where conch must fold its own log.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const demo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "demo", "main.js");
const child = spawn(process.execPath, [demo], { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(child.stdin);

let initDone = false;
let pending = "";
child.stdout.on("data", (chunk) => {
  if (initDone) {
    process.stdout.write(chunk);
    return;
  }
  pending += chunk.toString("utf8");
  let nl;
  while (!initDone && (nl = pending.indexOf("\n")) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    let out = line;
    try {
      const msg = JSON.parse(line);
      if (msg && msg.result && msg.result.agentCapabilities) {
        const caps = msg.result.agentCapabilities;
        caps.loadSession = false;
        if (caps.sessionCapabilities) delete caps.sessionCapabilities.resume;
        out = JSON.stringify(msg);
        initDone = true;
      }
    } catch {
      /* not JSON: pass it on as it was */
    }
    process.stdout.write(`${out}\n`);
  }
  if (initDone && pending) {
    process.stdout.write(pending);
    pending = "";
  }
});
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(sig, () => child.kill(sig));
process.stdin.on("end", () => child.stdin.end());
