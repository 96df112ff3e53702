#!/usr/bin/env node
// pty: pane throughput. 10 MiB of ANSI-coloured lines from a child command, run through
// ClientTerminal (node-pty) into its TerminalScreen (@xterm/headless, 10,000 lines of scrollback):
// MB/s from the first byte to the last byte parsed (goal >= 25 MB/s) and the pane's memory. While
// it runs, two latencies: the event loop's responsiveness in that process (how late a 10 ms timer
// fires, as a keystroke handler would be), and in the TUI itself: keys typed into conch's input
// while a client terminal runs the flood in a pane, until the typed character is on the screen
// (goal p95 <= 33 ms). And the pane's throughput in the TUI itself, the UI live: the flood by bytes
// in a pane, from its first write until conch answers that it exited (goal >= 30 MB/s).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { BENCH, BIN, log, metric, numOpt, parseArgs, projectRun, quantile, report, sleep, tempDir, waitForBuild } from "./lib/common.mjs";
import { mainThreadCpuSeconds, memKiB } from "./lib/proc.mjs";
import { typeKeys } from "./lib/keys.mjs";

const args = parseArgs();
const FLOOD = path.join(BENCH, "lib", "color-flood.mjs");
const BYTES = numOpt(args, "mb", 10) * 1024 * 1024;

if (args.opts["inner-pane"]) {
  await innerPane();
  process.exit(0);
}

const RUNS = numOpt(args, "runs", 5, 2);
const KEY_RUNS = numOpt(args, "key-runs", 3, 1);
const KEYS = numOpt(args, "keys", 60, 30);
const UI_RUNS = numOpt(args, "ui-runs", 3, 1);
const UI_BYTES = numOpt(args, "ui-mb", 20, 10) * 1024 * 1024;
/** `--parts source,pane,alone,keys,ui`: which measurements to run (all by default). */
const PARTS = typeof args.opts.parts === "string" ? args.opts.parts.split(",") : undefined;
const part = (name) => !PARTS || PARTS.includes(name);
/** `--bin other/bin/conch.js`: the TUI parts (keys, ui) run another build (an A/B pair with one bench). */
const CONCH = typeof args.opts.bin === "string" ? path.resolve(args.opts.bin) : BIN;
/** `--cpu-prof-dir d`: the TUI parts run conch under `--cpu-prof`, one profile per thread in `d`. */
const PROF = typeof args.opts["cpu-prof-dir"] === "string" ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(args.opts["cpu-prof-dir"])] : [];
/** How the TUI parts start conch with `args`. */
const conchArgs = (conch) => ({ commandArgs: [...PROF, CONCH, ...conch] });
const dir = tempDir("pty");

// ---- the producer alone, for scale ------------------------------------------------------------------
const source = [];
for (let i = 0; i < (part("source") ? 3 : 0); i++) {
  const t0 = performance.now();
  spawnSync("sh", ["-c", `${JSON.stringify(process.execPath)} ${JSON.stringify(FLOOD)} --bytes ${BYTES} > /dev/null`]);
  source.push(BYTES / 1e6 / ((performance.now() - t0) / 1000));
}

// ---- ClientTerminal + TerminalScreen, each run in a fresh process -------------------------------------
const panes = [];
for (let i = 0; i < (part("pane") ? RUNS + 1 : 0); i++) {
  const r = await runInner();
  if (i > 0) panes.push(r);
  log(
    `pty: pane run ${i}${i ? "" : " (warm-up)"}: ${(r.bytes / 1e6).toFixed(1)} MB in ${r.parseMs.toFixed(0)} ms → ${r.mbps.toFixed(1)} MB/s; ${r.cpuMsPerMB.toFixed(0)} CPU-ms/MB, main thread ${r.mainMsPerMB.toFixed(0)}; loop lag p95 ${r.lagP95.toFixed(1)} ms; peak +${r.peakMiB.toFixed(0)} MiB`,
  );
}

// ---- the emulator alone: the same bytes written straight into a TerminalScreen ------------------------------
const { TerminalScreen } = await import("../dist/terminals/terminal-screen.js");
const floodText = !part("alone")
  ? ""
  : spawnSync(process.execPath, [FLOOD, "--bytes", String(BYTES)], { maxBuffer: 4 * BYTES, encoding: "utf8" }).stdout.replace(
      /\n/g,
      "\r\n",
    );
const parseOnly = [];
for (let i = 0; i < (part("alone") ? 4 : 0); i++) {
  const screen = new TerminalScreen({ cols: 100, rows: 30, scrollback: 10_000 });
  const t0 = performance.now();
  for (let k = 0; k < floodText.length; k += 65536) screen.write(floodText.slice(k, k + 65536));
  await screen.flush();
  if (i > 0) parseOnly.push(Buffer.byteLength(floodText) / 1e6 / ((performance.now() - t0) / 1000));
  screen.dispose();
}

// ---- the transport alone: node-pty reading the flood and dropping it ------------------------------------------
const { default: pty } = await import("@lydell/node-pty");
const ptyOnly = [];
for (let i = 0; i < (part("alone") ? 4 : 0); i++) {
  let first;
  let bytes = 0;
  const p = pty.spawn(process.execPath, [FLOOD, "--bytes", String(BYTES)], { cols: 100, rows: 30, encoding: "utf8" });
  await new Promise((resolve) => {
    p.onData((d) => {
      first ??= performance.now();
      bytes += Buffer.byteLength(d);
    });
    p.onExit(resolve);
  });
  if (i > 0) ptyOnly.push(bytes / 1e6 / ((performance.now() - first) / 1000));
}

// ---- keystrokes in the TUI while a pane floods -------------------------------------------------------------
const keyRuns = [];
let keyNote;
if (!part("keys")) keyNote = "not run (--parts)";
else if (await waitForBuild(["dist/ui/app/app.js"], 0)) {
  for (let i = 0; i < KEY_RUNS; i++) {
    try {
      const r = await keysDuringFlood(i);
      keyRuns.push(r);
      log(
        `pty: TUI keys run ${i + 1}/${KEY_RUNS}: ${r.latencies.length} keys, p50 ${quantile(r.latencies, 0.5).toFixed(1)} ms, p95 ${quantile(r.latencies, 0.95).toFixed(1)} ms, max ${Math.max(...r.latencies).toFixed(0)} ms; ${r.frames} frames in ${(r.span / 1000).toFixed(1)} s`,
      );
    } catch (err) {
      keyNote = `the TUI keystroke run failed: ${err.message.split("\n")[0]}`;
      log(`pty: ${keyNote}\n${err.message}`);
      break;
    }
  }
} else keyNote = "the TUI is not built (dist/ui missing)";

// ---- pane throughput in the TUI: the flood in a client terminal shown in a pane, the UI live ---------------
const uiRuns = [];
let uiNote;
if (!part("ui")) uiNote = "not run (--parts)";
else if (await waitForBuild(["dist/bundle/conch.js"], 0)) {
  for (let i = 0; i < UI_RUNS + 1; i++) {
    try {
      const r = await paneThroughputInTui(i);
      if (i > 0) uiRuns.push(r);
      log(
        `pty: TUI pane run ${i}${i ? "" : " (warm-up)"}: ${(UI_BYTES / 1e6).toFixed(0)} MB in ${r.ms.toFixed(0)} ms → ${r.mbps.toFixed(1)} MB/s (first byte → conch answered the exit); conch CPU ${r.cpuPct.toFixed(0)} %, ${r.cpuMsPerMB.toFixed(0)} CPU-ms/MB of which the main thread ${r.mainMsPerMB.toFixed(0)}; over the flood alone ${r.floodMsPerMB.toFixed(0)}, main ${r.floodMainMsPerMB.toFixed(0)}`,
      );
    } catch (err) {
      uiNote = `the TUI pane throughput run failed: ${err.message.split("\n")[0]}`;
      log(`pty: ${uiNote}\n${err.message}`);
      break;
    }
  }
} else uiNote = "the bundle is not built (dist/bundle missing)";

const keyP95 = keyRuns.map((r) => quantile(r.latencies, 0.95));
const notes = [
  `pane: ${(BYTES / 1048576).toFixed(0)} MiB from \`node color-flood.mjs\` (SGR colours, ~90-byte lines; the PTY adds a \\r per line), 100x30, scrollback 10,000; MB/s = bytes parsed / (last byte parsed − first byte read); 1 MB = 10^6 bytes`,
  "keystroke → frame (TUI): conch --agent <a bench agent that runs the flood in a client terminal, shown in a pane>; single letters are typed into the input while the flood runs and each is timed from the write to the PTY until the input line on the screen shows it; keys are 20-60 ms apart",
  `pane throughput with the UI live: conch --agent <the same bench agent> in a 100x30 PTY, the flood ${(UI_BYTES / 1048576).toFixed(0)} MiB by bytes; MB/s = source bytes / (the flood's first write → conch answered the agent's terminal/wait_for_exit, which it does once the pane's screen has parsed everything)`,
  "event loop (in-process): a 10 ms timer re-armed for the whole run in the process that owns the pane; its lateness is what a keystroke handler would wait",
];
if (keyNote) notes.push(keyNote);
if (uiNote) notes.push(uiNote);
report(args, {
  bench: "pty",
  title: "pane throughput through ClientTerminal + TerminalScreen, and keystroke latency during a flood",
  metrics: [
    metric({
      name: "pane throughput (first byte → parsed)",
      unit: "MB/s",
      values: panes.map((r) => r.mbps),
      goal: { op: ">=", value: 25 },
    }),
    metric({ name: "pane throughput incl. command start", unit: "MB/s", values: panes.map((r) => r.mbpsFromSpawn) }),
    metric({ name: "pane: CPU per MB (the process, all threads)", unit: "ms/MB", values: panes.map((r) => r.cpuMsPerMB) }),
    metric({
      name: "pane: main-thread CPU per MB",
      unit: "ms/MB",
      values: panes.map((r) => r.mainMsPerMB),
      note: "what a flood costs the thread the UI runs on",
    }),
    uiRuns.length
      ? metric({
          name: "pane throughput with the UI live (TUI)",
          unit: "MB/s",
          values: uiRuns.map((r) => r.mbps),
          goal: { op: ">=", value: 30 },
        })
      : metric({ name: "pane throughput with the UI live (TUI)", unit: "MB/s", goal: { op: ">=", value: 30 }, skip: uiNote }),
    ...(uiRuns.length
      ? [
          metric({ name: "TUI pane flood: conch CPU per MB (all threads)", unit: "ms/MB", values: uiRuns.map((r) => r.cpuMsPerMB) }),
          metric({ name: "TUI pane flood: main-thread CPU per MB", unit: "ms/MB", values: uiRuns.map((r) => r.mainMsPerMB) }),
          metric({
            name: "TUI pane flood: conch CPU per MB over the flood alone (all threads)",
            unit: "ms/MB",
            values: uiRuns.map((r) => r.floodMsPerMB),
            note: "first byte → conch answered the exit; the figures above run from Enter to the turn's end and include the turn around the flood",
          }),
          metric({
            name: "TUI pane flood: main-thread CPU per MB over the flood alone",
            unit: "ms/MB",
            values: uiRuns.map((r) => r.floodMainMsPerMB),
          }),
        ]
      : []),
    metric({ name: "source alone (flood → /dev/null)", unit: "MB/s", values: source }),
    metric({ name: "TerminalScreen alone (same bytes, 64 KiB writes)", unit: "MB/s", values: parseOnly }),
    metric({ name: "node-pty alone (read and drop)", unit: "MB/s", values: ptyOnly }),
    metric({ name: "pane peak RSS over the idle process", unit: "MiB", values: panes.map((r) => r.peakMiB) }),
    metric({ name: "pane retained heap (screen kept, after gc)", unit: "MiB", values: panes.map((r) => r.retainedMiB) }),
    keyRuns.length
      ? metric({
          name: "TUI keystroke → frame p95 during flood",
          unit: "ms",
          values: keyP95,
          goal: { op: "<=", value: 33 },
          note: `${keyRuns.reduce((s, r) => s + r.latencies.length, 0)} keys`,
        })
      : metric({ name: "TUI keystroke → frame p95 during flood", unit: "ms", goal: { op: "<=", value: 33 }, skip: keyNote }),
    ...(keyRuns.length
      ? [
          metric({ name: "TUI keystroke → frame p50 during flood", unit: "ms", values: keyRuns.map((r) => quantile(r.latencies, 0.5)) }),
          metric({ name: "TUI frames/s during flood", unit: "frames/s", values: keyRuns.map((r) => r.frames / (r.span / 1000)) }),
        ]
      : []),
    metric({
      name: "event-loop lag p95 during flood (in-process)",
      unit: "ms",
      values: panes.map((r) => r.lagP95),
      goal: { op: "<=", value: 33 },
    }),
    metric({ name: "event-loop lag max during flood (in-process)", unit: "ms", values: panes.map((r) => r.lagMax) }),
  ],
  notes,
});

function runInner() {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--expose-gc", fileURLToPath(import.meta.url), "--inner-pane", "1", "--mb", String(BYTES / 1048576)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("close", (code) => {
      try {
        resolve(JSON.parse(out.trim().split("\n").pop()));
      } catch {
        reject(new Error(`pane run failed (exit ${code}): ${out.slice(-400)}`));
      }
    });
  });
}

async function innerPane() {
  const { ClientTerminal } = await import("../dist/terminals/client-terminal.js");
  global.gc();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = memKiB(process.pid).rss;
  let peak = rss0;
  const lags = [];
  let expected = performance.now() + 10;
  let probe;
  const tick = () => {
    const now = performance.now();
    lags.push(Math.max(0, now - expected));
    peak = Math.max(peak, memKiB(process.pid)?.rss ?? 0);
    expected = now + 10;
    probe = setTimeout(tick, 10);
  };
  probe = setTimeout(tick, 10);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuSeconds(process.pid);
  let first;
  let bytes = 0;
  const term = new ClientTerminal({
    command: process.execPath,
    args: [FLOOD, "--bytes", String(BYTES)],
    cols: 100,
    rows: 30,
    scrollback: 10_000,
  });
  term.onOutput((d) => {
    first ??= performance.now();
    bytes += Buffer.byteLength(d, "utf8");
  });
  const status = await term.waitForExit();
  const t1 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const mainMs = (mainThreadCpuSeconds(process.pid) - main0) * 1000;
  clearTimeout(probe);
  peak = Math.max(peak, memKiB(process.pid)?.hwm ?? 0);
  global.gc();
  global.gc();
  const retained = process.memoryUsage().heapUsed - heap0;
  const rows = term.screen.scrollbackRows;
  term.release();
  process.stdout.write(
    `${JSON.stringify({ bytes, parseMs: t1 - first, mbps: bytes / 1e6 / ((t1 - first) / 1000), mbpsFromSpawn: bytes / 1e6 / ((t1 - t0) / 1000), peakMiB: (peak - rss0) / 1024, retainedMiB: retained / 1048576, lagP95: quantile(lags, 0.95), lagMax: Math.max(...lags), exit: status, scrollbackRows: rows, cpuMsPerMB: (cpu.user + cpu.system) / 1000 / (bytes / 1e6), mainMsPerMB: mainMs / (bytes / 1e6) })}\n`,
  );
}

async function keysDuringFlood(i) {
  const { isReady, TuiRun } = await import("./lib/tui.mjs");
  const agentCmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(BENCH, "lib", "pane-flood-agent.mjs"))}`;
  const floodSeconds = Math.ceil(KEYS * 0.1) + 4;
  const run = new TuiRun({
    ...conchArgs(["--agent", agentCmd, "--permissions", "approve-all"]),
    ...projectRun(dir, `keys-${i}`, { FLOOD_ARGS: `--seconds ${floodSeconds}` }),
  });
  try {
    await run.waitFor(isReady, 30_000, "the session to be ready");
    // Typed, then Enter on its own, as a person does (text and Enter in one read can count as a paste).
    run.write("flood");
    await run.waitFor((lines) => lines.some((l) => /›\s*flood/.test(l)), 5000, "the typed prompt");
    await sleep(100);
    run.write("\r");
    // The pane is up once flood lines (their level tags) are on the screen.
    await run.waitFor((lines) => lines.some((l) => / (INFO| WARN|ERROR|DEBUG) /.test(l)), 15_000, "the flood in the pane");
    await sleep(500);
    const f0 = run.writes.length;
    const s0 = run.now();
    const latencies = await typeKeys(run, { keys: KEYS });
    const span = run.now() - s0;
    const frames = run.writes.length - f0;
    const stillFlooding = run.lines().some((l) => / (INFO| WARN|ERROR|DEBUG) /.test(l));
    if (!stillFlooding) log("pty: note: the flood had ended before the last key");
    return { latencies, frames, span };
  } finally {
    await run.stop();
  }
}

/** CPU seconds (`key`: all threads or the main one) at epoch ms `at`, between the two samples around it. */
function cpuAt(samples, at, key) {
  const after = samples.findIndex((s) => s.at >= at);
  if (after <= 0) return samples[after < 0 ? samples.length - 1 : 0][key];
  const a = samples[after - 1];
  const b = samples[after];
  return a[key] + ((b[key] - a[key]) * (at - a.at)) / Math.max(1e-9, b.at - a.at);
}

async function paneThroughputInTui(i) {
  const { isReady, TuiRun } = await import("./lib/tui.mjs");
  const { cpuSeconds, mainThreadCpuSeconds } = await import("./lib/proc.mjs");
  const { readFileSync } = await import("node:fs");
  const stamp = path.join(dir, `ui-${i}.stamp`);
  const stats = path.join(dir, `ui-${i}.stats.json`);
  const agentCmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(BENCH, "lib", "pane-flood-agent.mjs"))}`;
  const run = new TuiRun({
    ...conchArgs(["--agent", agentCmd, "--permissions", "approve-all"]),
    ...projectRun(dir, `ui-${i}`, { FLOOD_ARGS: `--bytes ${UI_BYTES} --stamp ${stamp}`, FLOOD_STATS: stats }),
  });
  try {
    await run.waitFor(isReady, 30_000, "the session to be ready");
    run.write("flood");
    await run.waitFor((lines) => lines.some((l) => /›\s*flood/.test(l)), 5000, "the typed prompt");
    await sleep(100);
    const c0 = cpuSeconds(run.pid);
    const m0 = mainThreadCpuSeconds(run.pid);
    const t0 = run.now();
    // conch's CPU now and then (epoch ms, as the stamp and the exit are), to take it over the flood alone.
    const samples = [];
    const sample = () =>
      samples.push({ at: performance.timeOrigin + performance.now(), all: cpuSeconds(run.pid), main: mainThreadCpuSeconds(run.pid) });
    sample();
    const sampler = setInterval(sample, 10);
    run.write("\r");
    try {
      await run.waitFor((lines) => lines.some((l) => / (INFO| WARN|ERROR|DEBUG) /.test(l)), 30_000, "the flood in the pane");
      await run.waitFor(isReady, 120_000, "the turn to end");
    } finally {
      clearInterval(sampler);
    }
    sample();
    const cpuS = cpuSeconds(run.pid) - c0;
    const mainS = mainThreadCpuSeconds(run.pid) - m0;
    const cpuPct = (cpuS / ((run.now() - t0) / 1000)) * 100;
    const first = Number(readFileSync(stamp, "utf8"));
    const { exitedAt } = JSON.parse(readFileSync(stats, "utf8"));
    const ms = exitedAt - first;
    const flood = {
      all: cpuAt(samples, exitedAt, "all") - cpuAt(samples, first, "all"),
      main: cpuAt(samples, exitedAt, "main") - cpuAt(samples, first, "main"),
    };
    // CPU per MB does not depend on what else the machine runs, unlike MB/s.
    return {
      ms,
      mbps: UI_BYTES / 1e6 / (ms / 1000),
      cpuPct,
      mainMsPerMB: (mainS * 1000) / (UI_BYTES / 1e6),
      cpuMsPerMB: (cpuS * 1000) / (UI_BYTES / 1e6),
      floodMsPerMB: (flood.all * 1000) / (UI_BYTES / 1e6),
      floodMainMsPerMB: (flood.main * 1000) / (UI_BYTES / 1e6),
    };
  } finally {
    await run.stop();
  }
}
