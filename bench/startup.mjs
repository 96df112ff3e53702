#!/usr/bin/env node
// startup: process start → first frame with the input prompt visible, for `conch --agent demo`
// in a 100x30 pseudo-terminal. Goal: <= 500 ms median. Also: time to "agent ready" (the session is
// open and the placeholder invites a message), and the same first-frame time with an agent that
// takes 2 s to start (the agent start must not hold up the prompt).
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { DEMO, isolatedEnv, log, metric, numOpt, parseArgs, report, staleBuild, tempDir, waitForBuild } from "./lib/common.mjs";
import { hasAppFrame, hasPrompt, isReady, TuiRun } from "./lib/tui.mjs";

const args = parseArgs();
const RUNS = numOpt(args, "runs", 7, 3);
const SLOW_RUNS = numOpt(args, "slow-runs", 3, 1);
const SLOW_MS = numOpt(args, "slow-agent-ms", 2000);
const dir = tempDir("startup");

async function once(i, agentArgs) {
  const cwd = path.join(dir, `run-${i}`);
  mkdirSync(cwd, { recursive: true });
  const run = new TuiRun({ args: agentArgs, env: isolatedEnv(cwd), cwd });
  try {
    const firstByte = await new Promise((resolve) => run.proc.onData(() => resolve(run.now())));
    const prompt = await run.waitFor(hasPrompt, 15_000, "an input prompt");
    const app = await run.waitFor(hasAppFrame, 15_000, "the App's first frame");
    const ready = await run.waitFor(isReady, 30_000, "the agent to be ready");
    return { firstByte, prompt, app, ready };
  } finally {
    await run.stop();
  }
}

/** A key typed as soon as any prompt shows: when does the input line show it? */
async function keyEcho(i) {
  const cwd = path.join(dir, `key-${i}`);
  mkdirSync(cwd, { recursive: true });
  const run = new TuiRun({ args: ["--agent", "demo"], env: isolatedEnv(cwd), cwd });
  try {
    const prompt = await run.waitFor(hasPrompt, 15_000, "an input prompt");
    run.write("x");
    const echoed = await run.waitFor((lines) => lines.some((l) => /›\s?x/.test(l)), 15_000, "the typed key in the input");
    return { prompt, echoed };
  } finally {
    await run.stop();
  }
}

/** Loading the TUI's code (dist/ui/app.js: conch's UI, React, Ink, marked, highlight.js) without running it, for the analysis. */
function moduleLoadMs() {
  const app = path.join(path.dirname(DEMO), "..", "ui", "app.js");
  const t0 = performance.now();
  execFileSync(process.execPath, ["--input-type=module", "-e", `process.env.NODE_ENV ??= "production"; await import(${JSON.stringify(app)});`]);
  return performance.now() - t0;
}
function bareNodeMs() {
  const t0 = performance.now();
  execFileSync(process.execPath, ["-e", "0"]);
  return performance.now() - t0;
}

const notes = [
  "first frame with prompt = the first screen with an input prompt line: conch now draws an instant prompt before loading the UI (src/ui/instant-prompt.ts; typed keys wait in the terminal until the App is up); the App's own first frame (held to the same goal, as the first prompt that echoes keys) and the echo of a key typed at the first prompt are reported beside it",
];
if (!(await waitForBuild(["dist/cli/main.js", "dist/ui/run-interactive.js", "dist/ui/app.js"], numOpt(args, "wait-build", 60, 5) * 1000))) {
  report(args, { bench: "startup", title: "start → first frame with the prompt", metrics: [metric({ name: "first frame with prompt", unit: "ms", goal: { op: "<=", value: 500 }, skip: "the TUI is not built (dist/ui missing): run npm run build" })] });
  process.exit(0);
}
if (staleBuild()) notes.push("dist/ is older than src/: this measured the last build, not the current sources");

log("startup: warm-up run (not counted)");
await once("warmup", ["--agent", "demo"]);
const runs = [];
for (let i = 0; i < RUNS; i++) {
  const r = await once(i, ["--agent", "demo"]);
  log(`startup: run ${i + 1}/${RUNS}: prompt ${r.prompt.toFixed(0)} ms, App frame ${r.app.toFixed(0)} ms, ready ${r.ready.toFixed(0)} ms`);
  runs.push(r);
}
const slowAgent = `sh -c 'sleep ${SLOW_MS / 1000}; exec "$0" "$1"' ${JSON.stringify(process.execPath)} ${JSON.stringify(DEMO)}`;
const slow = [];
for (let i = 0; i < SLOW_RUNS; i++) {
  const r = await once(`slow-${i}`, ["--agent", slowAgent]);
  log(`startup: slow agent run ${i + 1}/${SLOW_RUNS}: prompt ${r.prompt.toFixed(0)} ms, ready ${r.ready.toFixed(0)} ms`);
  slow.push(r);
}
const echoes = [];
for (let i = 0; i < SLOW_RUNS; i++) {
  const r = await keyEcho(i);
  log(`startup: key typed at the first prompt (${r.prompt.toFixed(0)} ms) echoed at ${r.echoed.toFixed(0)} ms`);
  echoes.push(r);
}
const loads = [];
const bare = [];
for (let i = 0; i < (args.quick ? 2 : 5); i++) {
  bare.push(bareNodeMs());
  loads.push(moduleLoadMs());
}
const blocked = runs.filter((r) => r.prompt >= r.ready).length + slow.filter((r) => r.prompt >= SLOW_MS).length;
if (blocked) notes.push(`${blocked} run(s) drew the prompt only once the agent was ready: the agent start blocked the first frame`);

report(args, {
  bench: "startup",
  title: "`conch --agent demo` in a 100x30 PTY: start → first frame with the input prompt",
  metrics: [
    metric({ name: "first frame with prompt (instant prompt)", unit: "ms", values: runs.map((r) => r.prompt), goal: { op: "<=", value: 500 } }),
    metric({ name: "first frame, agent takes 2 s to start", unit: "ms", values: slow.map((r) => r.prompt), goal: { op: "<=", value: 500 }, note: `agent: ${slowAgent}` }),
    metric({ name: "first frame of the App (Ink) with its input", unit: "ms", values: runs.map((r) => r.app), goal: { op: "<=", value: 500 }, note: "the same goal, for the UI that echoes keys" }),
    metric({ name: "a key typed at the first prompt is echoed", unit: "ms", values: echoes.map((r) => r.echoed) }),
    metric({ name: "agent ready (session open)", unit: "ms", values: runs.map((r) => r.ready) }),
    metric({ name: "first byte on the PTY", unit: "ms", values: runs.map((r) => r.firstByte) }),
    metric({ name: "node -e 0 (bare Node start)", unit: "ms", values: bare }),
    metric({ name: "node: import dist/ui/app.js alone", unit: "ms", values: loads }),
  ],
  notes,
});
