#!/usr/bin/env node
// flood: the TUI while an agent streams one message, measured from the outside as a person meets
// it (conch in a real PTY, 100x30, read back through @xterm/headless; lib/flood-agent.mjs as the
// agent, FLOOD_KIND=words: numbered words, a line break every 10).
//   - keystroke → echo while the agent floods at full speed (as fast as conch reads its pipe):
//     letters typed 20-60 ms apart, each timed until the input line shows it (goal p95 <= 33 ms);
//   - bytes conch writes to the terminal for a 20,000-chunk flood, over the text's own size
//     (goal <= 1.3x);
//   - per-frame cost over a 20,000-chunk message paced at 1,000 chunks/s: conch's CPU time per
//     frame and bytes per frame in the first and the last 10 % of the message (goal: flat, the
//     last within 1.5x of the first);
//   - CPU of the conch process while the agent streams 100 chunks/s (goal <= 10 % of a core).
// A frame is a burst of output: reads from the PTY less than 3 ms apart count as one.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import {
  BENCH,
  isolatedEnv,
  log,
  median,
  metric,
  numOpt,
  parseArgs,
  quantile,
  report,
  sleep,
  staleBuild,
  tempDir,
  waitForBuild,
} from "./lib/common.mjs";
import { cpuSeconds } from "./lib/proc.mjs";
import { typeKeys } from "./lib/keys.mjs";
import { isReady, TuiRun } from "./lib/tui.mjs";

const args = parseArgs();
const KEY_RUNS = numOpt(args, "key-runs", 3, 1);
const KEYS = numOpt(args, "keys", 60, 30);
const BYTE_RUNS = numOpt(args, "byte-runs", 3, 1);
const FRAME_RUNS = numOpt(args, "frame-runs", 2, 1);
const FRAME_RATE = numOpt(args, "frame-rate", 1000, 2000);
const CPU_RUNS = numOpt(args, "cpu-runs", 3, 1);
const CPU_SECONDS = numOpt(args, "cpu-seconds", 10, 5);
const CHUNKS = 20_000;
const MARKER = "FLOODEND4417";
const FRAME_GAP_MS = 3;
const dir = tempDir("flood");

if (!(await waitForBuild(["dist/bundle/conch.js"], numOpt(args, "wait-build", 60, 5) * 1000))) {
  report(args, {
    bench: "flood",
    metrics: [
      metric({
        name: "keystroke → echo p95 during a message flood",
        unit: "ms",
        goal: { op: "<=", value: 33 },
        skip: "the bundle is not built: run npm run build",
      }),
    ],
  });
  process.exit(0);
}

const floodWord = /w\d{6}/;
const agentCmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(BENCH, "lib", "flood-agent.mjs"))}`;

/**
 * Launches conch on the flood agent (with `floodEnv`), sends one prompt, and runs `during(run, ctx)`
 * once the flood is on the screen. `ctx.stats()` is the agent's own account once the flood is over.
 */
async function floodRun(name, floodEnv, during) {
  const cwd = path.join(dir, name);
  mkdirSync(cwd, { recursive: true });
  const statsFile = path.join(dir, `${name}.stats.json`);
  rmSync(statsFile, { force: true });
  const env = isolatedEnv(cwd, { FLOOD_KIND: "words", FLOOD_MARKER: `\n${MARKER}\n`, FLOOD_STATS: statsFile, ...floodEnv });
  const run = new TuiRun({ args: ["--agent", agentCmd], env, cwd, scrollback: 5000 });
  try {
    await run.waitFor(isReady, 30_000, "the session to be ready");
    // Typed, then Enter on its own, as a person does (text and Enter in one read can count as a paste).
    run.write("go");
    await run.waitFor((lines) => lines.some((l) => /›\s*go/.test(l)), 5000, "the typed prompt");
    await sleep(100);
    const enterAt = run.now();
    const enterWrite = run.writes.length;
    run.write("\r");
    const firstAt = await run.waitFor((lines) => lines.some((l) => floodWord.test(l)), 30_000, "the flood on the screen");
    let drawn = false;
    run
      .waitFor((lines) => lines.some((l) => l.includes(MARKER)), 600_000, "the end marker")
      .then(
        () => (drawn = true),
        () => {},
      );
    const ctx = {
      enterAt,
      enterWrite,
      firstAt,
      over: () => existsSync(statsFile),
      /** The end of the flood is on the screen: conch has caught up. */
      drawn: () => drawn,
      stats: () => JSON.parse(readFileSync(statsFile, "utf8")),
      /** Resolves with the time the end marker was drawn, once the turn is over (the input invites a message again). */
      async end(timeoutMs = 120_000) {
        const markerAt = await run.waitFor(
          (lines) => lines.some((l) => l.includes(MARKER)),
          timeoutMs,
          "the end of the flood on the screen",
        );
        const idleAt = await run.waitFor(isReady, timeoutMs, "the turn to end");
        return { markerAt, idleAt };
      },
    };
    return await during(run, ctx);
  } finally {
    await run.stop();
  }
}

/** Reads from the PTY grouped into frames: `{ at, bytes }`, reads less than FRAME_GAP_MS apart joined. */
function framesOf(run, from = 0, to = Infinity) {
  const frames = [];
  for (let i = 0; i < run.writes.length; i++) {
    const at = run.writes[i];
    if (at < from || at > to) continue;
    const last = frames.at(-1);
    if (last && at - last.end < FRAME_GAP_MS) {
      last.end = at;
      last.bytes += run.writeBytes[i];
    } else frames.push({ at, end: at, bytes: run.writeBytes[i] });
  }
  return frames;
}

/** Samples a process's CPU seconds every 50 ms; `between(a, b)` is the CPU used between two run times. */
function cpuSampler(run) {
  const samples = [];
  const sample = () => samples.push({ at: run.now(), cpu: cpuSeconds(run.pid) });
  sample();
  const timer = setInterval(sample, 50);
  const at = (t) => {
    // The last sample at or before t, and the first after: interpolated.
    let i = samples.findIndex((s) => s.at > t);
    if (i < 0) i = samples.length - 1;
    const b = samples[i];
    const a = samples[Math.max(0, i - 1)];
    if (b.at === a.at) return b.cpu;
    return a.cpu + ((b.cpu - a.cpu) * Math.min(1, Math.max(0, t - a.at))) / (b.at - a.at);
  };
  return { stop: () => clearInterval(timer), between: (t0, t1) => at(t1) - at(t0), samples };
}

// ---- warm-up -----------------------------------------------------------------------------------------
log("flood: warm-up launch (not counted)");
await floodRun("warm", { FLOOD_N: "2000" }, async (run, ctx) => ctx.end());

// ---- keystroke → echo during a full-speed flood -------------------------------------------------------
const keyRuns = [];
const keyNotes = [];
for (let i = 0; i < KEY_RUNS; i++) {
  try {
    const r = await floodRun(`keys-${i}`, { FLOOD_SECONDS: String(Math.ceil(KEYS * 0.1) + 6) }, async (run, ctx) => {
      await sleep(500);
      // Keys count while conch still works through the flood: the agent may be done sending long before.
      const latencies = await typeKeys(run, { keys: KEYS, until: () => !ctx.drawn() });
      const duringFlood = !ctx.drawn();
      return { latencies, duringFlood };
    });
    keyRuns.push(r);
    log(
      `flood: keys run ${i + 1}/${KEY_RUNS}: ${r.latencies.length} keys, p50 ${quantile(r.latencies, 0.5).toFixed(1)} ms, p95 ${quantile(r.latencies, 0.95).toFixed(1)} ms, max ${Math.max(...r.latencies).toFixed(0)} ms${r.duringFlood ? "" : " (typing stopped once conch had drawn the end)"}`,
    );
  } catch (err) {
    keyNotes.push(`a keys run failed: ${err.message.split("\n")[0]}`);
    log(`flood: keys run failed: ${err.message}`);
  }
}

// ---- bytes written for a 20,000-chunk flood ---------------------------------------------------------------
const byteRuns = [];
for (let i = 0; i < BYTE_RUNS; i++) {
  const r = await floodRun(`bytes-${i}`, { FLOOD_N: String(CHUNKS) }, async (run, ctx) => {
    const { markerAt, idleAt } = await ctx.end();
    await sleep(300);
    const bytes = run.writeBytes.slice(ctx.enterWrite).reduce((a, b) => a + b, 0);
    const stats = ctx.stats();
    return {
      bytes,
      textBytes: stats.textBytes,
      ratio: bytes / stats.textBytes,
      drawnMs: markerAt - ctx.enterAt,
      idleMs: idleAt - ctx.enterAt,
      agentMs: stats.endedAt - stats.startedAt,
    };
  });
  byteRuns.push(r);
  log(
    `flood: bytes run ${i + 1}/${BYTE_RUNS}: ${(r.bytes / 1e6).toFixed(2)} MB written for ${(r.textBytes / 1e6).toFixed(2)} MB of text (${r.ratio.toFixed(2)}x); all drawn ${r.drawnMs.toFixed(0)} ms after Enter (agent sent for ${r.agentMs.toFixed(0)} ms)`,
  );
}

// ---- per-frame cost over a long message -------------------------------------------------------------------
const frameRuns = [];
for (let i = 0; i < FRAME_RUNS; i++) {
  const r = await floodRun(`frames-${i}`, { FLOOD_N: String(CHUNKS), FLOOD_RATE: String(FRAME_RATE) }, async (run, ctx) => {
    const cpu = cpuSampler(run);
    try {
      const { markerAt } = await ctx.end((CHUNKS / FRAME_RATE) * 1000 * 10 + 60_000);
      const span = markerAt - ctx.firstAt;
      const windowOf = (from, to) => {
        const frames = framesOf(run, from, to);
        const cpuMs = cpu.between(from, to) * 1000;
        return {
          frames: frames.length,
          cpuMsPerFrame: cpuMs / Math.max(1, frames.length),
          bytesPerFrame: median(frames.map((f) => f.bytes)),
          fps: frames.length / ((to - from) / 1000),
          cpuPct: (cpuMs / (to - from)) * 100,
        };
      };
      return { span, first: windowOf(ctx.firstAt, ctx.firstAt + span / 10), last: windowOf(markerAt - span / 10, markerAt) };
    } finally {
      cpu.stop();
    }
  });
  frameRuns.push(r);
  log(
    `flood: frames run ${i + 1}/${FRAME_RUNS}: message drawn over ${(r.span / 1000).toFixed(1)} s; first 10 %: ${r.first.fps.toFixed(0)} frames/s, ${r.first.cpuMsPerFrame.toFixed(1)} CPU-ms and ${r.first.bytesPerFrame.toFixed(0)} B per frame (${r.first.cpuPct.toFixed(0)} % CPU); last 10 %: ${r.last.fps.toFixed(0)} frames/s, ${r.last.cpuMsPerFrame.toFixed(1)} CPU-ms and ${r.last.bytesPerFrame.toFixed(0)} B per frame (${r.last.cpuPct.toFixed(0)} % CPU)`,
  );
}

// ---- CPU at 100 chunks/s ------------------------------------------------------------------------------------
const cpuRuns = [];
for (let i = 0; i < CPU_RUNS; i++) {
  const r = await floodRun(`cpu-${i}`, { FLOOD_SECONDS: String(CPU_SECONDS + 3), FLOOD_RATE: "100" }, async (run, ctx) => {
    await sleep(1000);
    const c0 = cpuSeconds(run.pid);
    const t0 = run.now();
    await sleep(CPU_SECONDS * 1000);
    const pct = ((cpuSeconds(run.pid) - c0) / ((run.now() - t0) / 1000)) * 100;
    const frames = framesOf(run, t0, run.now()).length / ((run.now() - t0) / 1000);
    const over = ctx.over();
    return { pct, fps: frames, over };
  });
  cpuRuns.push(r);
  log(
    `flood: cpu run ${i + 1}/${CPU_RUNS}: ${r.pct.toFixed(1)} % of a core at 100 chunks/s, ${r.fps.toFixed(0)} frames/s${r.over ? " (the stream ended before the window did)" : ""}`,
  );
}

const p95s = keyRuns.map((r) => quantile(r.latencies, 0.95));
const notes = [
  `conch --agent lib/flood-agent.mjs (FLOOD_KIND=words: "w000123 ", a line break every 10) in a 100x30 PTY; each figure over runs of their own launch; a frame = PTY reads less than ${FRAME_GAP_MS} ms apart`,
  "keystroke → echo: letters typed 20-60 ms apart into the input while the agent floods as fast as conch reads its pipe, each timed from the write to the PTY until the input line shows it; the figures are the per-run p50/p95, median over runs",
  `bytes: all conch wrote to the terminal from Enter until the turn was over, for ${CHUNKS.toLocaleString("en-US")} chunks at full speed, over the UTF-8 size of the text streamed`,
  `per frame: a ${CHUNKS.toLocaleString("en-US")}-chunk message paced at ${FRAME_RATE} chunks/s; conch's CPU (utime+stime) in the first and last 10 % of the time from the first word drawn to the last, over the frames in that window; "flat" is taken as the last within 1.5x of the first`,
  "CPU at 100 chunks/s: conch's process alone (not the agent), over a window starting 1 s into the stream",
];
if (staleBuild()) notes.push("dist/ is older than src/: this measured the last build, not the current sources");
notes.push(...keyNotes);
const ratio = (f) => frameRuns.map((r) => r.last[f] / r.first[f]);
report(args, {
  bench: "flood",
  title: "the TUI while an agent streams: keys, bytes, per-frame cost, CPU",
  metrics: [
    keyRuns.length
      ? metric({
          name: "keystroke → echo p95 during a message flood",
          unit: "ms",
          values: p95s,
          goal: { op: "<=", value: 33 },
          note: `${keyRuns.reduce((s, r) => s + r.latencies.length, 0)} keys`,
        })
      : metric({
          name: "keystroke → echo p95 during a message flood",
          unit: "ms",
          goal: { op: "<=", value: 33 },
          skip: keyNotes[0] ?? "no run",
        }),
    metric({ name: "keystroke → echo p50 during a message flood", unit: "ms", values: keyRuns.map((r) => quantile(r.latencies, 0.5)) }),
    metric({
      name: "bytes written per flood / text size",
      unit: "x",
      values: byteRuns.map((r) => r.ratio),
      goal: { op: "<=", value: 1.3 },
    }),
    metric({ name: "20,000-chunk flood: Enter → last word drawn", unit: "ms", values: byteRuns.map((r) => r.drawnMs) }),
    metric({
      name: "CPU-ms per frame, first 10 % of a 20,000-chunk message",
      unit: "ms",
      values: frameRuns.map((r) => r.first.cpuMsPerFrame),
    }),
    metric({ name: "CPU-ms per frame, last 10 %", unit: "ms", values: frameRuns.map((r) => r.last.cpuMsPerFrame) }),
    metric({ name: "CPU-ms per frame, last 10 % / first 10 %", unit: "x", values: ratio("cpuMsPerFrame"), goal: { op: "<=", value: 1.5 } }),
    metric({ name: "bytes per frame (median), first 10 %", unit: "B", values: frameRuns.map((r) => r.first.bytesPerFrame) }),
    metric({ name: "bytes per frame (median), last 10 %", unit: "B", values: frameRuns.map((r) => r.last.bytesPerFrame) }),
    metric({
      name: "frames/s, first 10 % → last 10 %",
      unit: "frames/s",
      values: frameRuns.map((r) => r.last.fps),
      note: `first 10 %: ${frameRuns.map((r) => r.first.fps.toFixed(0)).join(", ")}`,
    }),
    metric({
      name: "conch CPU while streaming 100 chunks/s",
      unit: "% of a core",
      values: cpuRuns.map((r) => r.pct),
      goal: { op: "<=", value: 10 },
    }),
  ],
  notes,
});
