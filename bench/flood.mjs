#!/usr/bin/env node
// flood: the TUI while an agent streams one message, measured from the outside as a person meets
// it (conch in a real PTY, 100x30, read back through @xterm/headless; lib/flood-agent.mjs as the
// agent, FLOOD_KIND=words: numbered words, a line break every 10).
//   - keystroke → echo while the agent floods at full speed (as fast as conch reads its pipe):
//     letters typed 20-60 ms apart, each timed until the input line shows it (goal p95 <= 33 ms);
//   - keystroke → echo while the agent streams at a model's pace, 100 chunks/s: a letter every
//     100 ms (goal p95 <= 33 ms; the floor is tmux's echo with conch idle, ~10 ms);
//   - bytes conch writes to the terminal for a 20,000-chunk flood, over the text's own size
//     (goal <= 1.3x);
//   - per-frame cost over a 20,000-chunk message paced at 1,000 chunks/s: conch's CPU time per
//     frame and bytes per frame in the first and the last 10 % of the message (goal: flat, the
//     last within 1.5x of the first);
//   - CPU of the conch process while the agent streams 100 chunks/s (goal <= 10 % of a core).
// A frame is a burst of output: reads from the PTY less than 3 ms apart count as one.
// `--parts keys,paced,bytes,frames,cpu` runs some of them; `--bin path/to/conch.js` measures another
// build with this script (A/B pairs against an older checkout).
import path from "node:path";
import { log, median, metric, numOpt, parseArgs, quantile, report, sleep, staleBuild, tempDir, waitForBuild } from "./lib/common.mjs";
import { floodRunner } from "./lib/flood-run.mjs";
import { cpuSeconds } from "./lib/proc.mjs";
import { typeKeys } from "./lib/keys.mjs";

const args = parseArgs();
const KEY_RUNS = numOpt(args, "key-runs", 3, 1);
const KEYS = numOpt(args, "keys", 60, 30);
const BYTE_RUNS = numOpt(args, "byte-runs", 3, 1);
const FRAME_RUNS = numOpt(args, "frame-runs", 2, 1);
const FRAME_RATE = numOpt(args, "frame-rate", 1000, 2000);
const CPU_RUNS = numOpt(args, "cpu-runs", 3, 1);
const CPU_SECONDS = numOpt(args, "cpu-seconds", 10, 5);
const PACED_KEYS = numOpt(args, "paced-keys", 60, 30);
const PACED_RUNS = numOpt(args, "paced-runs", 3, 1);
const PARTS = new Set(String(args.opts.parts ?? "keys,paced,bytes,frames,cpu").split(","));
const OTHER_BIN = typeof args.opts.bin === "string" ? path.resolve(args.opts.bin) : undefined;
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

const { floodRun, framesOf, cpuSampler } = floodRunner({ dir, marker: MARKER, frameGapMs: FRAME_GAP_MS, bin: OTHER_BIN });

// ---- warm-up -----------------------------------------------------------------------------------------
log("flood: warm-up launch (not counted)");
await floodRun("warm", { FLOOD_N: "2000" }, async (run, ctx) => ctx.end());

// ---- keystroke → echo during a full-speed flood -------------------------------------------------------
const keyRuns = [];
const keyNotes = [];
for (let i = 0; i < (PARTS.has("keys") ? KEY_RUNS : 0); i++) {
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

// ---- keystroke → echo at a model's pace -------------------------------------------------------------------
const pacedRuns = [];
for (let i = 0; i < (PARTS.has("paced") ? PACED_RUNS : 0); i++) {
  try {
    const r = await floodRun(
      `paced-${i}`,
      { FLOOD_SECONDS: String(Math.ceil(PACED_KEYS * 0.15) + 6), FLOOD_RATE: "100" },
      async (run, ctx) => {
        await sleep(1000);
        const latencies = await typeKeys(run, { keys: PACED_KEYS, gapMs: [100, 100], until: () => !ctx.over() });
        return { latencies, duringStream: !ctx.over() };
      },
    );
    pacedRuns.push(r);
    log(
      `flood: paced keys run ${i + 1}/${PACED_RUNS}: ${r.latencies.length} keys, p50 ${quantile(r.latencies, 0.5).toFixed(1)} ms, p95 ${quantile(r.latencies, 0.95).toFixed(1)} ms, max ${Math.max(...r.latencies).toFixed(0)} ms${r.duringStream ? "" : " (the stream ended before the keys did)"}`,
    );
  } catch (err) {
    keyNotes.push(`a paced keys run failed: ${err.message.split("\n")[0]}`);
    log(`flood: paced keys run failed: ${err.message}`);
  }
}

// ---- bytes written for a 20,000-chunk flood ---------------------------------------------------------------
const byteRuns = [];
for (let i = 0; i < (PARTS.has("bytes") ? BYTE_RUNS : 0); i++) {
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
for (let i = 0; i < (PARTS.has("frames") ? FRAME_RUNS : 0); i++) {
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
for (let i = 0; i < (PARTS.has("cpu") ? CPU_RUNS : 0); i++) {
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
  "keystroke → echo at 100 chunks/s: a letter 100 ms after the last one showed, while the agent streams 100 chunks/s, timed the same way",
  `bytes: all conch wrote to the terminal from Enter until the turn was over, for ${CHUNKS.toLocaleString("en-US")} chunks at full speed, over the UTF-8 size of the text streamed`,
  `per frame: a ${CHUNKS.toLocaleString("en-US")}-chunk message paced at ${FRAME_RATE} chunks/s; conch's CPU (utime+stime) in the first and last 10 % of the time from the first word drawn to the last, over the frames in that window; "flat" is taken as the last within 1.5x of the first`,
  "CPU at 100 chunks/s: conch's process alone (not the agent), over a window starting 1 s into the stream",
];
if (OTHER_BIN) notes.push(`measured ${OTHER_BIN}, not this checkout's build`);
else if (staleBuild()) notes.push("dist/ is older than src/: this measured the last build, not the current sources");
notes.push(...keyNotes);
const ratio = (f) => frameRuns.map((r) => r.last[f] / r.first[f]);
/** The metrics of one part, skipped when `--parts` left it out. */
const partMetrics = (name, metrics) =>
  PARTS.has(name)
    ? metrics
    : metrics.map((m) => metric({ name: m.name, unit: m.unit, goal: m.goal ?? undefined, skip: "not run (--parts)" }));
report(args, {
  bench: "flood",
  title: "the TUI while an agent streams: keys, bytes, per-frame cost, CPU",
  metrics: [
    ...partMetrics("keys", [
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
    ]),
    ...partMetrics("paced", [
      metric({
        name: "keystroke → echo p95, a key every 100 ms while streaming 100 chunks/s",
        unit: "ms",
        values: pacedRuns.map((r) => quantile(r.latencies, 0.95)),
        goal: { op: "<=", value: 33 },
        note: `${pacedRuns.reduce((s, r) => s + r.latencies.length, 0)} keys; p50 ${median(pacedRuns.map((r) => quantile(r.latencies, 0.5))).toFixed(1)} ms`,
      }),
    ]),
    ...partMetrics("bytes", [
      metric({
        name: "bytes written per flood / text size",
        unit: "x",
        values: byteRuns.map((r) => r.ratio),
        goal: { op: "<=", value: 1.3 },
      }),
      metric({ name: "20,000-chunk flood: Enter → last word drawn", unit: "ms", values: byteRuns.map((r) => r.drawnMs) }),
    ]),
    ...partMetrics("frames", [
      metric({
        name: "CPU-ms per frame, first 10 % of a 20,000-chunk message",
        unit: "ms",
        values: frameRuns.map((r) => r.first.cpuMsPerFrame),
      }),
      metric({ name: "CPU-ms per frame, last 10 %", unit: "ms", values: frameRuns.map((r) => r.last.cpuMsPerFrame) }),
      metric({
        name: "CPU-ms per frame, last 10 % / first 10 %",
        unit: "x",
        values: ratio("cpuMsPerFrame"),
        goal: { op: "<=", value: 1.5 },
      }),
      metric({ name: "bytes per frame (median), first 10 %", unit: "B", values: frameRuns.map((r) => r.first.bytesPerFrame) }),
      metric({ name: "bytes per frame (median), last 10 %", unit: "B", values: frameRuns.map((r) => r.last.bytesPerFrame) }),
      metric({
        name: "frames/s, first 10 % → last 10 %",
        unit: "frames/s",
        values: frameRuns.map((r) => r.last.fps),
        note: `first 10 %: ${frameRuns.map((r) => r.first.fps.toFixed(0)).join(", ")}`,
      }),
    ]),
    ...partMetrics("cpu", [
      metric({
        name: "conch CPU while streaming 100 chunks/s",
        unit: "% of a core",
        values: cpuRuns.map((r) => r.pct),
        goal: { op: "<=", value: 10 },
      }),
    ]),
  ],
  notes,
});
