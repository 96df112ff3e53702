#!/usr/bin/env node
// run-all (`npm run bench`): runs every benchmark one after another (never two at once: they would
// share the 2 cores), prints one table (bench, metric, goal, figure, pass/short) and writes
// bench/results.json. `--quick` passes on to each bench for a short smoke run; `--only a,b` runs
// some; `--skip a,b` leaves some out; `--merge` keeps the other benches' entries of the last
// results.json (to re-run one bench).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { machineBusySeconds, runMeasured } from "./lib/proc.mjs";
import { BENCH, ROOT, fmt, goalText, figureText, log, machine, machineBusy, parseArgs, staleBuild, table } from "./lib/common.mjs";

const args = parseArgs();
const BENCHES = [
  // 20 launches per figure, with real agents through ../shared/real-agents, and a 100-launch fuzz.
  { name: "startup", file: "startup.mjs", timeoutS: 2400 },
  { name: "first-prompt", file: "first-prompt.mjs" },
  { name: "idle", file: "idle.mjs" },
  { name: "decode", file: "decode.mjs" },
  { name: "throughput", file: "throughput.mjs" },
  { name: "settle", file: "settle.mjs" },
  { name: "checkpoint", file: "checkpoint.mjs" },
  { name: "replay", file: "replay.mjs" },
  { name: "memory", file: "memory.mjs" },
  { name: "pty", file: "pty.mjs" },
  { name: "flood", file: "flood.mjs" },
  { name: "attach", file: "attach.mjs" },
  { name: "print-vs-acpx", file: "print-vs-acpx.mjs" },
  // Owned by another engineer; it takes --seconds and --json and prints its own result object.
  { name: "stream", file: "stream.mjs", extra: ["--seconds", "10"], foreign: true },
];
const only = typeof args.opts.only === "string" ? args.opts.only.split(",") : undefined;
const skip = typeof args.opts.skip === "string" ? args.opts.skip.split(",") : [];
const TIMEOUT_MS = Number(args.opts["timeout-s"] ?? 900) * 1000;
/** Before each bench, wait (up to this long) for other work on the machine to calm down. */
const QUIET_WAIT_S = Number(args.opts["quiet-wait-s"] ?? 60);
const QUIET_BUSY_PCT = Number(args.opts["quiet-pct"] ?? 25);

/** Waits until less than `--quiet-pct` (25) % of the machine is busy with other work; returns the last reading. */
async function waitQuiet() {
  const deadline = Date.now() + QUIET_WAIT_S * 1000;
  let busy = await machineBusy(1000);
  while (busy > QUIET_BUSY_PCT && Date.now() < deadline) {
    log(`run-all: the machine is ${busy}% busy with other work; waiting for it to calm down`);
    busy = await machineBusy(3000);
  }
  return busy;
}

/**
 * Runs one bench as a measured process tree, so that the machine's other work while it ran can be
 * told apart: busy CPU of the whole machine (/proc/stat) minus the bench's own tree.
 */
async function runBench(b) {
  const argv = [path.join(BENCH, b.file), "--json", ...(b.extra ?? []), ...(args.quick && !b.foreign ? ["--quick"] : [])];
  const busy0 = machineBusySeconds();
  let r;
  try {
    r = await runMeasured(process.execPath, argv, {
      cwd: ROOT,
      env: process.env,
      timeoutMs: Math.max(TIMEOUT_MS, (b.timeoutS ?? 0) * 1000),
      graceMs: 5000,
      onStderr: (d) => process.stderr.write(d),
    });
  } catch (err) {
    return { code: null, signal: "runner", seconds: 0, result: undefined, stderrTail: String(err.message) };
  }
  const busy = machineBusySeconds() - busy0;
  const seconds = r.wallMs / 1000;
  const otherPct = Math.max(0, ((busy - r.cpuS) / (seconds * cpus().length)) * 100);
  let result;
  try {
    result = JSON.parse(r.stdout);
  } catch {
    try {
      result = JSON.parse(r.stdout.trim().split("\n").pop());
    } catch {
      result = undefined;
    }
  }
  return {
    code: r.code,
    signal: r.signal,
    seconds,
    result,
    otherPct: Math.round(otherPct * 10) / 10,
    benchCpuS: r.cpuS,
    stderrTail: r.stderr.split("\n").slice(-15).join("\n"),
  };
}

/** The stream bench prints its own object; its headline figures become info rows here. */
function foreignMetrics(result) {
  if (Array.isArray(result.metrics)) return result.metrics;
  const pick = [
    ["framesPerSecond", "frames/s", "frames/s"],
    ["renderMsP50", "render p50", "ms"],
    ["renderMsP95", "render p95", "ms"],
    ["bytesPerFrameFirst", "bytes/frame, first window", "B"],
    ["bytesPerFrameLast", "bytes/frame, last window", "B"],
    ["cpuPercentOfCore", "CPU", "% of a core"],
    ["heapMB", "heap", "MB"],
    ["firstPaintMs", "first paint", "ms"],
    ["chunksPerSecond", "chunks/s sent", "chunks/s"],
  ];
  const rows = [];
  for (const [k, name, unit] of pick)
    if (typeof result[k] === "number")
      rows.push({ name, unit, median: result[k], min: result[k], max: result[k], n: 1, goal: null, status: "info" });
  for (const [k, name] of [
    ["transcriptMatchesChunks", "transcript == chunks"],
    ["lastChunkOnScreen", "last chunk drawn"],
  ]) {
    if (typeof result[k] === "boolean")
      rows.push({
        name,
        unit: "",
        median: result[k] ? 1 : 0,
        n: 1,
        goal: null,
        status: result[k] ? "pass" : "short",
        note: String(result[k]),
      });
  }
  return rows;
}

const started = new Date();
const results = [];
if (staleBuild()) log("run-all: warning: dist/ is older than src/; run `npm run build` first (npm run bench does)");
for (const b of BENCHES) {
  if ((only && !only.includes(b.name)) || skip.includes(b.name)) continue;
  if (!existsSync(path.join(BENCH, b.file))) {
    log(`run-all: ${b.file} is missing`);
    results.push({ bench: b.name, missing: true, metrics: [{ name: `${b.file}`, status: "skipped", note: "missing", goal: null }] });
    continue;
  }
  const busyBefore = await waitQuiet();
  log(`\nrun-all: ── ${b.name} ── (machine ${busyBefore}% busy before it)`);
  const r = await runBench(b);
  if (!r.result) {
    results.push({
      bench: b.name,
      failed: true,
      exit: r.code ?? r.signal,
      seconds: r.seconds,
      busyBeforePct: busyBefore,
      otherWorkPct: r.otherPct,
      metrics: [
        {
          name: "run",
          status: "failed",
          note: `exit ${r.code ?? r.signal}; ${r.stderrTail.trim().split("\n").slice(-3).join(" | ")}`,
          goal: null,
        },
      ],
    });
    continue;
  }
  const metrics = b.foreign ? foreignMetrics(r.result) : r.result.metrics;
  results.push({
    ...r.result,
    bench: b.name,
    seconds: Math.round(r.seconds),
    busyBeforePct: busyBefore,
    otherWorkPct: r.otherPct,
    benchCpuS: r.benchCpuS,
    metrics,
    ...(b.foreign ? { raw: r.result } : {}),
  });
}

const rows = [];
for (const r of results)
  for (const m of r.metrics)
    rows.push([
      r.bench,
      m.name,
      m.status === "failed" ? "-" : goalText(m.goal, m.unit),
      m.status === "failed" ? `FAILED: ${m.note}` : m.unit === "" && m.note ? m.note : figureText(m),
      m.status === "info" ? "" : m.status,
    ]);
process.stdout.write(`\n${table(rows, ["bench", "metric", "goal", "median (min–max, n)", "result"])}\n`);
const goals = results.flatMap((r) => r.metrics.filter((m) => m.goal));
const short = goals.filter((m) => m.status !== "pass");
if (goals.length)
  process.stdout.write(
    `\n${goals.length - short.length} of ${goals.length} goals met${short.length ? `; short: ${short.map((m) => m.name).join("; ")}` : ""}\n`,
  );
for (const r of results) for (const m of r.metrics) if (m.shortBy) process.stdout.write(`  ${r.bench}: ${m.name}: ${m.shortBy}\n`);
process.stdout.write(
  `other work on the machine while each bench ran (share of all cores; before it → during it): ${results.map((r) => `${r.bench} ${r.busyBeforePct ?? "?"}% → ${r.otherWorkPct ?? "?"}%`).join(", ")}\n`,
);
process.stdout.write(`took ${fmt((Date.now() - started.getTime()) / 1000)} s${args.quick ? " (--quick: smoke run, few samples)" : ""}\n`);

const resultsFile = path.join(BENCH, "results.json");
let all = results;
if (args.opts.merge && existsSync(resultsFile)) {
  // --merge: keep the other benches' entries of the last results.json, replace the ones run now.
  const previous = JSON.parse(readFileSync(resultsFile, "utf8")).results ?? [];
  const ran = new Set(results.map((r) => r.bench));
  all = BENCHES.map((b) => (ran.has(b.name) ? results.find((r) => r.bench === b.name) : previous.find((r) => r.bench === b.name))).filter(
    Boolean,
  );
}
const out = { startedAt: started.toISOString(), quick: args.quick, machine: machine(), results: all };
writeFileSync(resultsFile, `${JSON.stringify(out, null, 2)}\n`);
log("run-all: wrote bench/results.json");
