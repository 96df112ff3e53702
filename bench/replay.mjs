#!/usr/bin/env node
// replay: `conch --resume` of a 10,000-update session. The session is written the way conch writes
// one (an Orchestrator on a scripted agent, recorded by SessionRecorder: openSessionLog +
// upsertSession) for agent `demo`, and the demo agent gets the same session in its own store, so
// it can `session/load` it. Three paths:
//   (a) in-process: prepareSession (index + log read) → foldEvents → first render of the App into
//       a fake 100x30 TTY, until the last history item is written;
//   (b) the CLI, `conch --resume <id>` under node-pty, the demo agent loading (replaying) the session;
//   (c) the CLI with an agent that cannot load or resume (the demo behind a proxy that hides both):
//       conch folds its own log.
// Goals: time to interactive <= 1 s, peak RSS <= 400 MB.
import { cpSync, mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { BENCH, isolatedEnv, log, metric, numOpt, parseArgs, report, sleep, tempDir, waitForBuild } from "./lib/common.mjs";
import { memKiB } from "./lib/proc.mjs";

const args = parseArgs();
const MARKER = "ENDOFHISTORY7391";

if (args.opts["inner-fold"]) {
  await innerFold(JSON.parse(args.opts["inner-fold"]));
  process.exit(0);
}

const RUNS = numOpt(args, "runs", 3, 1);
const UPDATES = numOpt(args, "updates", 10_000);

if (!(await waitForBuild(["dist/cli/main.js", "dist/ui/app.js"], numOpt(args, "wait-build", 60, 5) * 1000))) {
  report(args, { bench: "replay", metrics: [metric({ name: "time to interactive", unit: "ms", goal: { op: "<=", value: 1000 }, skip: "the TUI is not built" })] });
  process.exit(0);
}

const { generateTurns, mixOf } = await import("./lib/session-gen.mjs");
const { startOrchestrator, playTurns } = await import("./lib/drive.mjs");
const { SessionRecorder } = await import("../dist/orchestrator/session-recorder.js");
const { demoAgentCommand } = await import("../dist/agents/presets.js");
const { appendToHistory } = await import("../dist/demo/session-history.js");
const { SessionStore } = await import("../dist/demo/session-store.js");
const { sessionLogPath } = await import("../dist/store/state-dir.js");
const { hasPrompt, isReady, TuiRun } = await import("./lib/tui.mjs");

const dir = tempDir("replay");
const pristine = path.join(dir, "pristine");
const root = path.join(pristine, "state");
const demoState = path.join(pristine, "demo-state");
const cwd = path.join(pristine, "project");
mkdirSync(cwd, { recursive: true });

// ---- the session -----------------------------------------------------------------------------------
const id = `demo-${randomUUID()}`;
const turns = generateTurns({ updates: UPDATES, marker: MARKER });
const demoCmd = demoAgentCommand();
const recorder = new SessionRecorder({ agent: "demo", agentCommand: [demoCmd.command, ...demoCmd.args], cwd, root });
const tGen = performance.now();
const { orch, agent } = await startOrchestrator({ sessionId: id, sink: recorder, cwd, agentName: "demo", agentCommand: demoCmd });
recorder.attach(() => orch.state);
await playTurns(orch, agent, turns);
await recorder.close();
const history = [];
for (const t of turns) {
  appendToHistory(history, { sessionUpdate: "user_message_chunk", content: { type: "text", text: t.prompt } });
  for (const u of t.updates) appendToHistory(history, u);
}
const now = new Date().toISOString();
new SessionStore(demoState).saveSync({ version: 1, sessionId: id, cwd, title: turns[0].prompt.slice(0, 60), createdAt: now, updatedAt: now, modeId: "code", model: "demo-fast", allowAlwaysEdits: false, usedTokens: 0, history });
const logBytes = statSync(sessionLogPath(id, root)).size;
const logEvents = readFileSync(sessionLogPath(id, root), "utf8").split("\n").filter(Boolean).length;
log(`replay: wrote session ${id}: ${UPDATES} updates in ${turns.length} turns, log ${(logBytes / 1e6).toFixed(1)} MB / ${logEvents} events, demo replays ${history.length} updates (${(performance.now() - tGen).toFixed(0)} ms)`);

// ---- (a) in-process fold + first render ---------------------------------------------------------------
const inner = [];
let innerError;
for (let i = 0; i < RUNS + 1; i++) {
  const r = await runInner({ root, id, cwd, marker: MARKER });
  if (r.error) {
    innerError = r.error;
    log(`replay (a): failed: ${r.error}`);
    break;
  }
  if (i > 0) inner.push(r); // the first run warms the file cache
  log(`replay (a): prepare ${r.prepareMs.toFixed(0)} ms, fold ${r.foldMs.toFixed(0)} ms, render ${r.renderMs.toFixed(0)} ms, history drawn at ${r.markerMs.toFixed(0)} ms, HWM ${r.hwmMiB.toFixed(0)} MiB`);
}

// ---- (b), (c) the CLI --------------------------------------------------------------------------------
async function cli(label, extraArgs, i) {
  const runDir = path.join(dir, `${label}-${i}`);
  cpSync(root, path.join(runDir, "state"), { recursive: true });
  cpSync(demoState, path.join(runDir, "demo-state"), { recursive: true });
  const env = isolatedEnv(runDir);
  const run = new TuiRun({ args: ["--resume", id, ...extraArgs], env, cwd, scrollback: 20_000 });
  let hwm = 0;
  let agentHwm = 0;
  const sampler = setInterval(() => {
    hwm = Math.max(hwm, memKiB(run.pid)?.hwm ?? 0);
  }, 100);
  let tail = "";
  let markerAt;
  run.proc.onData((d) => {
    if (markerAt === undefined && (tail + d).includes(MARKER)) markerAt = run.now();
    tail = d.slice(-MARKER.length);
  });
  try {
    const prompt = await run.waitFor(hasPrompt, 15_000, "an input prompt");
    const ready = await run.waitFor(isReady, 60_000, "the session to be ready");
    const deadline = Date.now() + 30_000;
    while (markerAt === undefined && Date.now() < deadline) await sleep(20);
    await sleep(300);
    hwm = Math.max(hwm, memKiB(run.pid)?.hwm ?? 0);
    const { processTree } = await import("./lib/proc.mjs");
    for (const p of processTree(run.pid)) if (p !== run.pid) agentHwm = Math.max(agentHwm, memKiB(p)?.hwm ?? 0);
    const drawn = run.allText().includes(MARKER);
    return { prompt, ready, history: markerAt ?? NaN, interactive: Math.max(prompt, ready), hwmMiB: hwm / 1024, agentHwmMiB: agentHwm / 1024, drawn };
  } finally {
    clearInterval(sampler);
    await run.stop();
  }
}
const noLoad = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(BENCH, "lib", "no-load-agent.mjs"))}`;
const viaLoad = [];
const viaLog = [];
const cliErrors = [];
const failed = (label) => (err) => {
  cliErrors.push(`${label}: ${err.message.split("\n")[0]}`);
  log(`replay ${label}: ${err.message}`);
  return { prompt: NaN, ready: NaN, history: NaN, interactive: NaN, hwmMiB: NaN, agentHwmMiB: NaN, drawn: false };
};
for (let i = 0; i < RUNS + 1; i++) {
  const b = await cli("load", [], i).catch(failed("(b)"));
  const c = await cli("noload", ["--agent", noLoad], i).catch(failed("(c)"));
  log(`replay (b) load: prompt ${b.prompt.toFixed(0)}, ready ${b.ready.toFixed(0)}, history ${b.history.toFixed(0)} ms, HWM ${b.hwmMiB.toFixed(0)} MiB${b.drawn ? "" : " (marker NOT on screen)"}`);
  log(`replay (c) no load: prompt ${c.prompt.toFixed(0)}, ready ${c.ready.toFixed(0)}, history ${c.history.toFixed(0)} ms, HWM ${c.hwmMiB.toFixed(0)} MiB${c.drawn ? "" : " (marker NOT on screen)"}`);
  if (i > 0) {
    viaLoad.push(b);
    viaLog.push(c);
  }
}

const notes = [
  `session: ${UPDATES} updates (${Object.entries(mixOf(turns)).map(([k, v]) => `${k} ${v}`).join(", ")}) in ${turns.length} turns; conch's log ${(logBytes / 1e6).toFixed(1)} MB, ${logEvents} events; the demo agent coalesces chunks of a message in its store, so its session/load replays ${history.length} updates`,
  "time to interactive = the input prompt is drawn and the session is open (the placeholder invites a message, so what is typed is sent at once); full history = the last history item (a marker at the end of the last answer) was written to the terminal",
  "one warm-up run of each path is not counted",
];
if (innerError) notes.push(`(a) in-process render failed: ${innerError}`);
for (const e of new Set(cliErrors)) notes.push(`a CLI run failed: ${e}`);
for (const [label, runs] of [["(b)", viaLoad], ["(c)", viaLog]]) if (runs.some((r) => !r.drawn)) notes.push(`${label}: the last history item was not found in the terminal's buffer in some runs`);

report(args, {
  bench: "replay",
  title: `--resume of a ${UPDATES}-update session`,
  metrics: [
    metric({ name: "(c) CLI, agent can't load: time to interactive", unit: "ms", values: viaLog.map((r) => r.interactive), goal: { op: "<=", value: 1000 } }),
    metric({ name: "(c) CLI, agent can't load: full history drawn", unit: "ms", values: viaLog.map((r) => r.history) }),
    metric({ name: "(c) CLI, agent can't load: conch peak RSS", unit: "MiB", values: viaLog.map((r) => r.hwmMiB), goal: { op: "<=", value: 400 } }),
    metric({ name: "(b) CLI, demo loads: time to interactive", unit: "ms", values: viaLoad.map((r) => r.interactive), goal: { op: "<=", value: 1000 } }),
    metric({ name: "(b) CLI, demo loads: full history drawn", unit: "ms", values: viaLoad.map((r) => r.history) }),
    metric({ name: "(b) CLI, demo loads: conch peak RSS", unit: "MiB", values: viaLoad.map((r) => r.hwmMiB), goal: { op: "<=", value: 400 } }),
    metric({ name: "(b) CLI, demo loads: agent peak RSS", unit: "MiB", values: viaLoad.map((r) => r.agentHwmMiB) }),
    ...inProcessMetrics(),
  ],
  notes,
});

function inProcessMetrics() {
  const skip = innerError ? `failed: ${innerError}` : undefined;
  return [
    metric({ name: "(a) in-process: prepareSession (index + log)", unit: "ms", values: inner.map((r) => r.prepareMs), skip }),
    metric({ name: "(a) in-process: foldEvents of the log", unit: "ms", values: inner.map((r) => r.foldMs), skip }),
    metric({ name: "(a) in-process: first render of the App", unit: "ms", values: inner.map((r) => r.renderMs), skip }),
    metric({ name: "(a) in-process: total to full history", unit: "ms", values: inner.map((r) => r.markerMs), goal: { op: "<=", value: 1000 }, skip }),
    metric({ name: "(a) in-process: peak RSS", unit: "MiB", values: inner.map((r) => r.hwmMiB), goal: { op: "<=", value: 400 }, skip }),
  ];
}

// ---- the in-process path, run in a child so its memory is its own ---------------------------------------
function runInner(cfg) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH, "replay.mjs"), "--inner-fold", JSON.stringify(cfg)], { env: isolatedEnv(dir, { CONCH_STATE_DIR: cfg.root }), stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    // Ink restores the cursor on stderr at exit; only real messages are passed on.
    child.stderr.on("data", (d) => {
      const text = d.toString().replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").trim();
      if (text) log(`replay (a) child: ${text}`);
    });
    child.on("close", (code) => {
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()));
      } catch {
        reject(new Error(`inner fold run failed (exit ${code}): ${out.slice(-500)}`));
      }
    });
  });
}

async function innerFold({ id, cwd, marker }) {
  // As the CLI does before it loads React (run-interactive.ts).
  process.env.NODE_ENV ??= "production";
  const { Writable, PassThrough } = await import("node:stream");
  const { createElement } = await import("react");
  const { render } = await import("ink");
  const { App } = await import("../dist/ui/app.js");
  const { prepareSession } = await import("../dist/cli/session-setup.js");
  const { foldEvents } = await import("../dist/session/reduce.js");
  let markerAt;
  let tail = "";
  let bytes = 0;
  let inkError;
  const t0 = performance.now();
  const stdout = new Writable({
    write(chunk, _enc, cb) {
      const s = chunk.toString();
      bytes += s.length;
      if (!inkError && /\n\s+ERROR\s/.test(s)) inkError = s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").trim().split("\n").slice(0, 3).join(" ");
      if (markerAt === undefined && (tail + s).includes(marker)) markerAt = performance.now();
      tail = s.slice(-marker.length);
      cb();
    },
  });
  Object.assign(stdout, { columns: 100, rows: 30, isTTY: true });
  const stdin = new PassThrough();
  Object.assign(stdin, { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  const prepared = await prepareSession({ resume: id, cwd, continue: false }, "ask");
  const t1 = performance.now();
  const state = foldEvents(prepared.orchestrator.opts.history ?? []);
  const t2 = performance.now();
  // A read-only session: the folded state, and no-op intents (whatever the SessionPort interface grows).
  const base = { state, subscribe: () => () => {}, terminals: undefined };
  const port = new Proxy(base, {
    get: (target, key) => (key in target ? target[key] : typeof key === "string" && key !== "then" ? async () => {} : undefined),
  });
  const ink = render(createElement(App, { session: port, agentName: "demo", cwd }), { stdout, stdin, stderr: stdout, exitOnCtrlC: false, patchConsole: false });
  const t3 = performance.now();
  const deadline = Date.now() + 20_000;
  while (markerAt === undefined && !inkError && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
  const hwm = memKiB(process.pid)?.hwm ?? NaN;
  ink.unmount();
  process.stdout.write(`${JSON.stringify({ prepareMs: t1 - t0, foldMs: t2 - t1, renderMs: t3 - t2, markerMs: (markerAt ?? NaN) - t0, hwmMiB: hwm / 1024, items: state.items.length, bytes, error: inkError ?? (markerAt === undefined ? "the last history item was never written" : undefined) })}\n`);
}
