#!/usr/bin/env node
// conch's demo agent behind a stdio proxy that notes, in $PROBE_LOG (one JSON line each), when a
// `session/request_permission` left the agent and when its answer came back to it: the moment an
// answer "reaches the agent" is when its line arrives at the agent's stdin. Times are
// `performance.timeOrigin + performance.now()` (ms since the epoch, sub-ms), comparable across
// processes on one machine. Everything passes through untouched.
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const demo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "demo", "main.js");
const child = spawn(process.execPath, [demo], { stdio: ["pipe", "pipe", "inherit"] });
const log = process.env.PROBE_LOG;
const now = () => performance.timeOrigin + performance.now();
const asked = new Set();

/** Calls `fn` with each whole line of a stream, then passes the bytes on. */
function lines(from, to, fn) {
  let partial = "";
  from.on("data", (chunk) => {
    const text = partial + chunk.toString("utf8");
    const all = text.split("\n");
    partial = all.pop() ?? "";
    for (const line of all) fn(line);
    to.write(chunk);
  });
}

lines(child.stdout, process.stdout, (line) => {
  if (!line.includes("session/request_permission")) return;
  try {
    const msg = JSON.parse(line);
    if (msg.method === "session/request_permission") {
      asked.add(msg.id);
      if (log) appendFileSync(log, `${JSON.stringify({ event: "asked", id: msg.id, at: now() })}\n`);
    }
  } catch {
    /* not ours */
  }
});
lines(process.stdin, child.stdin, (line) => {
  if (asked.size === 0 || line.includes('"method"')) return;
  const at = now();
  try {
    const msg = JSON.parse(line);
    if (asked.has(msg.id)) {
      asked.delete(msg.id);
      if (log) appendFileSync(log, `${JSON.stringify({ event: "answered", id: msg.id, at, outcome: msg.result?.outcome })}\n`);
    }
  } catch {
    /* not ours */
  }
});
process.stdin.on("end", () => child.stdin.end());
child.on("exit", (code) => process.exit(code ?? 0));
