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
//   (d) both CLI paths on a long conversation: 2,000 turns of markdown and code
//       (lib/session-gen.mjs generateLongSession): a key typed at 50 ms, keys typed while the
//       history is written (split by when: before the first transcript row, during the backlog),
//       the whole transcript in the scrollback, peak RSS. `--bin` runs the CLI paths of another
//       build; `--ab other/bin/conch.js` runs (d) with both builds in turn on one session (A/B pairs);
//       `--keys-log file` appends each run's keys (send time, latency) as JSON lines.
// Goals: time to interactive <= 500 ms, peak RSS <= 400 MB; (d) key echoed <= 200 ms, whole
// transcript in scrollback <= 2 s, peak RSS <= 250 MiB.
import { appendFileSync, cpSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { spawn } from "node:child_process";
import { BENCH, BIN, isolatedEnv, log, metric, numOpt, parseArgs, quantile, report, sleep, tempDir, waitForBuild } from "./lib/common.mjs";
import { cpuSeconds, mainThreadCpuSeconds, memKiB } from "./lib/proc.mjs";

const args = parseArgs();
const MARKER = "ENDOFHISTORY7391";

if (args.opts["inner-fold"]) {
  await innerFold(JSON.parse(args.opts["inner-fold"]));
  process.exit(0);
}

const RUNS = numOpt(args, "runs", 3, 1);
const UPDATES = numOpt(args, "updates", 10_000);
const LONG_TURNS = numOpt(args, "turns", 2000);
const LONG_RUNS = numOpt(args, "long-runs", 2, 1);
/** `--bin other/bin/conch.js`: the CLI paths run another build (an A/B pair with one bench). */
const OTHER_BIN = typeof args.opts.bin === "string" ? path.resolve(args.opts.bin) : undefined;
/**
 * `--ab other/bin/conch.js`: (d) runs each run with this build and with the other, in turn (the
 * first of a pair alternates), on the same session: A/B pairs under the same load.
 */
const AB_BIN = typeof args.opts.ab === "string" ? path.resolve(args.opts.ab) : undefined;
/** The builds (d) runs: its bin, and a name for the figures when there are two. */
const LONG_BUILDS = AB_BIN
  ? [
      { bin: BIN, name: "this build" },
      { bin: AB_BIN, name: "other build" },
    ]
  : [{ bin: OTHER_BIN, name: "" }];
/** `--parts a,bc,d`: which paths to run (all by default). */
const PARTS = typeof args.opts.parts === "string" ? args.opts.parts.split(",") : ["a", "bc", "d"];
/** `--cpu-prof-dir d`: the CLI paths run conch under `--cpu-prof`, one profile per thread in `d`. */
const PROF = typeof args.opts["cpu-prof-dir"] === "string" ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(args.opts["cpu-prof-dir"])] : [];

if (!(await waitForBuild(["dist/cli/main.js", "dist/ui/app/app.js"], numOpt(args, "wait-build", 60, 5) * 1000))) {
  report(args, {
    bench: "replay",
    metrics: [metric({ name: "time to interactive", unit: "ms", goal: { op: "<=", value: 500 }, skip: "the TUI is not built" })],
  });
  process.exit(0);
}

const { generateLongSession, generateTurns, mixOf } = await import("./lib/session-gen.mjs");
const { writeSession } = await import("./lib/session-writer.mjs");
const { hasPrompt, isReady, TuiRun } = await import("./lib/tui.mjs");
const { typeKeys } = await import("./lib/keys.mjs");
const { landmarksOf, TranscriptReader, wholeOnScreen } = await import("./lib/transcript-reader.mjs");
const { editorShows } = await import("./lib/startup-probe.mjs");

const dir = tempDir("replay");

// ---- the session -----------------------------------------------------------------------------------
const turns = generateTurns({ updates: UPDATES, marker: MARKER });
const tGen = performance.now();
const written = await writeSession(turns, path.join(dir, "pristine"));
const { id, root, cwd, logBytes, logEvents } = written;
log(
  `replay: wrote session ${id}: ${UPDATES} updates in ${turns.length} turns, log ${(logBytes / 1e6).toFixed(1)} MB / ${logEvents} events, demo replays ${written.replayUpdates} updates (${(performance.now() - tGen).toFixed(0)} ms)`,
);

// ---- (a) in-process fold + first render ---------------------------------------------------------------
const inner = [];
let innerError;
for (let i = 0; i < (PARTS.includes("a") ? RUNS + 1 : 0); i++) {
  const r = await runInner({ root, id, cwd, marker: MARKER, updates: UPDATES });
  if (r.error) {
    innerError = r.error;
    log(`replay (a): failed: ${r.error}`);
    break;
  }
  if (i > 0) inner.push(r); // the first run warms the file cache
  log(
    `replay (a): prepare ${r.prepareMs.toFixed(0)} ms, fold ${r.foldMs.toFixed(0)} ms, render ${r.renderMs.toFixed(0)} ms, history drawn at ${r.markerMs.toFixed(0)} ms, HWM ${r.hwmMiB.toFixed(0)} MiB`,
  );
}

// ---- (b), (c) the CLI --------------------------------------------------------------------------------
/**
 * `conch --resume` of `session` in a PTY. With `typing`: a key typed at 50 ms (when the editor shows
 * it: the App's, or the instant prompt where it is the App's editor, see lib/tui.mjs), then a letter every 30-60 ms until the whole transcript is there (each key's echo time).
 * `history` is when the whole transcript was in the terminal (`lib/transcript-reader.mjs`: every
 * landmark of `turns` in order, the end marker once); peak RSS is conch's high-water mark read
 * after that, so it covers the whole resume.
 */
async function cli(label, session, extraArgs, i, { typing = false, scrollback = 20_000, turns, bin = OTHER_BIN } = {}) {
  const runDir = path.join(dir, `${label}-${i}`);
  cpSync(session.root, path.join(runDir, "state"), { recursive: true });
  cpSync(session.demoState, path.join(runDir, "demo-state"), { recursive: true });
  const env = isolatedEnv(runDir);
  const cliArgs = ["--resume", session.id, ...extraArgs];
  const run = new TuiRun({
    args: cliArgs,
    commandArgs: (bin || PROF.length) && [...PROF, bin ?? BIN, ...cliArgs],
    env,
    cwd: session.cwd,
    scrollback,
  });
  let hwm = 0;
  let agentHwm = 0;
  const sampler = setInterval(() => {
    hwm = Math.max(hwm, memKiB(run.pid)?.hwm ?? 0);
  }, 100);
  const reader = new TranscriptReader({ landmarks: landmarksOf(turns), marker: MARKER });
  let wholeAt;
  const whole = run.waitFor(wholeOnScreen(reader), 120_000, "the whole transcript in the terminal").then((t) => (wholeAt = t));
  whole.catch(() => {});
  // The first transcript row on screen (a prompt's "(turn N)", or the end marker in the preview):
  // the App's first frame with the backlog. Keys typed before it meet the startup, after it the backlog.
  let transcriptAt = NaN;
  run
    .waitFor((lines) => lines.some((l) => /\(turn \d+\)/.test(l) || l.includes(MARKER)), 120_000, "a transcript row")
    .then(
      (t) => (transcriptAt = t),
      () => {},
    );
  const firstKey = typing
    ? new Promise((resolve) => setTimeout(() => resolve(run.now()), 50)).then((at) => (run.write("x"), at))
    : undefined;
  try {
    const prompt = await run.waitFor(hasPrompt, 15_000, "an input prompt");
    let echoed = NaN;
    const keys = [];
    const keysSent = [];
    if (typing) {
      await firstKey;
      echoed = await run.waitFor(editorShows("x"), 60_000, "the key typed at 50 ms in the editor");
      // Up to 39 more, so the input never needs clearing: a frame half drawn can look like a cleared input.
      if (wholeAt === undefined)
        keys.push(
          ...(await typeKeys(run, {
            keys: 39,
            typed: "x",
            gapMs: [30, 60],
            until: () => wholeAt === undefined,
            timeoutMs: 60_000,
            sentAt: keysSent,
          })),
        );
    }
    const history = await whole;
    // CPU to the whole transcript: unlike the times, it does not depend on what else the machine runs.
    const cpuMs = (cpuSeconds(run.pid) ?? NaN) * 1000;
    const mainCpuMs = (mainThreadCpuSeconds(run.pid) ?? NaN) * 1000;
    // The placeholder that says the session is open shows only in an empty input.
    if (typing) run.write("\x15");
    const ready = await run.waitFor(isReady, 120_000, "the session to be ready");
    await sleep(300);
    hwm = Math.max(hwm, memKiB(run.pid)?.hwm ?? 0);
    const { processTree } = await import("./lib/proc.mjs");
    for (const p of processTree(run.pid)) if (p !== run.pid) agentHwm = Math.max(agentHwm, memKiB(p)?.hwm ?? 0);
    const { wholeTranscript } = await import("./lib/transcript-reader.mjs");
    const drawn = wholeTranscript(run.allText().split("\n"), { landmarks: landmarksOf(turns), marker: MARKER });
    return {
      prompt,
      ready,
      echoed,
      keys,
      keysSent,
      transcriptAt,
      history,
      cpuMs,
      mainCpuMs,
      interactive: Math.max(prompt, ready),
      hwmMiB: hwm / 1024,
      agentHwmMiB: agentHwm / 1024,
      // Still whole once all is drawn: nothing was written twice after the clock stopped.
      drawn,
    };
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
  return {
    prompt: NaN,
    ready: NaN,
    echoed: NaN,
    keys: [],
    keysSent: [],
    transcriptAt: NaN,
    history: NaN,
    cpuMs: NaN,
    mainCpuMs: NaN,
    interactive: NaN,
    hwmMiB: NaN,
    agentHwmMiB: NaN,
    drawn: false,
  };
};
for (let i = 0; i < (PARTS.includes("bc") ? RUNS + 1 : 0); i++) {
  const b = await cli("load", written, [], i, { turns }).catch(failed("(b)"));
  const c = await cli("noload", written, ["--agent", noLoad], i, { turns }).catch(failed("(c)"));
  log(
    `replay (b) load: prompt ${b.prompt.toFixed(0)}, ready ${b.ready.toFixed(0)}, history ${b.history.toFixed(0)} ms, HWM ${b.hwmMiB.toFixed(0)} MiB${b.drawn ? "" : " (NOT whole in the terminal at the end)"}`,
  );
  log(
    `replay (c) no load: prompt ${c.prompt.toFixed(0)}, ready ${c.ready.toFixed(0)}, history ${c.history.toFixed(0)} ms, HWM ${c.hwmMiB.toFixed(0)} MiB${c.drawn ? "" : " (NOT whole in the terminal at the end)"}`,
  );
  if (i > 0) {
    viaLoad.push(b);
    viaLog.push(c);
  }
}

// ---- (d) a long conversation: 2,000 turns of markdown and code -------------------------------------------
const longTurns = PARTS.includes("d") ? generateLongSession({ turns: LONG_TURNS, marker: MARKER }) : [];
const tLong = performance.now();
const long = PARTS.includes("d") ? await writeSession(longTurns, path.join(dir, "pristine-long")) : undefined;
if (long)
  log(
    `replay (d): wrote session ${long.id}: ${LONG_TURNS} turns, log ${(long.logBytes / 1e6).toFixed(1)} MB / ${long.logEvents} events (${(performance.now() - tLong).toFixed(0)} ms)`,
  );
/** Per build (`LONG_BUILDS`): the counted runs of each path. */
const longRuns = LONG_BUILDS.map(() => ({ load: [], log: [] }));
for (let i = 0; i < (long ? LONG_RUNS + 1 : 0); i++) {
  // With two builds, the first of each pair alternates: neither always meets the same moment of the machine.
  const order = LONG_BUILDS.map((_, k) => k);
  if (i % 2) order.reverse();
  for (const k of order) {
    const { bin, name } = LONG_BUILDS[k];
    const opts = { typing: true, scrollback: 200_000, turns: longTurns, bin };
    const b = await cli("long-load", long, [], i, opts).catch(failed("(d) load"));
    const c = await cli("long-noload", long, ["--agent", noLoad], i, opts).catch(failed("(d) no load"));
    for (const [label, r] of [
      ["demo loads", b],
      ["no load", c],
    ]) {
      log(
        `replay (d)${name ? ` ${name},` : ""} ${label}: key echoed ${r.echoed.toFixed(0)} ms, ready ${r.ready.toFixed(0)}, history ${r.history.toFixed(0)} ms (conch CPU ${r.cpuMs.toFixed(0)} ms, main thread ${r.mainCpuMs.toFixed(0)}), ${r.keys.length} keys typed meanwhile${r.keys.length ? ` (p95 ${quantile(r.keys, 0.95).toFixed(0)} ms)` : ""}, HWM ${r.hwmMiB.toFixed(0)} MiB${r.drawn ? "" : " (NOT whole in the terminal at the end)"}`,
      );
    }
    if (args.opts["keys-log"])
      for (const [label, r] of [
        ["load", b],
        ["log", c],
      ])
        appendFileSync(
          args.opts["keys-log"],
          `${JSON.stringify({ label, run: i, ...(name ? { build: name } : {}), transcriptAt: r.transcriptAt, history: r.history, echoed: r.echoed, cpuMs: r.cpuMs, mainCpuMs: r.mainCpuMs, keys: r.keys, sent: r.keysSent })}\n`,
        );
    if (i > 0) {
      longRuns[k].load.push(b);
      longRuns[k].log.push(c);
    }
  }
}
/**
 * A run's key latencies by when each key was sent: before the first transcript row was on screen
 * (the startup: module loading, the log's read and fold, the first frame), while the backlog was
 * written (until the whole transcript was there), and after.
 */
function keysByPhase(r) {
  const phases = { startup: [], backlog: [], after: [] };
  r.keys.forEach((ms, i) => {
    const at = r.keysSent[i];
    phases[!(at >= r.transcriptAt) ? "startup" : at < r.history ? "backlog" : "after"].push(ms);
  });
  return phases;
}

function phaseMetrics(label, runs) {
  return ["startup", "backlog"].map((phase) => {
    const per = runs.map((r) => keysByPhase(r)[phase]);
    const pooled = per.flat();
    const name = `(d) 2,000 turns, ${label}: key → echo p95, keys sent ${phase === "startup" ? "before the first transcript row" : "from the first transcript row to the whole transcript"}`;
    return pooled.length
      ? metric({
          name,
          unit: "ms",
          values: per.filter((k) => k.length).map((k) => quantile(k, 0.95)),
          note: `${pooled.length} keys; all runs' keys together: p50 ${quantile(pooled, 0.5).toFixed(0)}, p95 ${quantile(pooled, 0.95).toFixed(0)} ms; first transcript row at ${runs.map((r) => r.transcriptAt.toFixed(0)).join(", ")} ms`,
        })
      : metric({ name, unit: "ms", skip: "no key was sent then" });
  });
}

function longMetrics(label, runs) {
  const typed = runs.flatMap((r) => r.keys);
  return [
    metric({
      name: `(d) 2,000 turns, ${label}: key typed at 50 ms echoed`,
      unit: "ms",
      values: runs.map((r) => r.echoed),
      goal: { op: "<=", value: 200 },
    }),
    metric({
      name: `(d) 2,000 turns, ${label}: whole transcript in scrollback`,
      unit: "ms",
      values: runs.map((r) => r.history),
      goal: { op: "<=", value: 2000 },
      note: runs.every((r) => r.drawn) ? undefined : "in some runs the terminal did not hold the whole transcript at the end",
    }),
    metric({
      name: `(d) 2,000 turns, ${label}: conch CPU to the whole transcript, all threads / main thread`,
      unit: "ms",
      values: runs.map((r) => r.cpuMs),
      note: `main thread ${runs.map((r) => r.mainCpuMs.toFixed(0)).join(", ")} ms`,
    }),
    metric({
      name: `(d) 2,000 turns, ${label}: conch peak RSS`,
      unit: "MiB",
      values: runs.map((r) => r.hwmMiB),
      goal: { op: "<=", value: 250 },
    }),
    typed.length
      ? metric({
          name: `(d) 2,000 turns, ${label}: key → echo p95 while the history is written`,
          unit: "ms",
          values: runs.filter((r) => r.keys.length).map((r) => quantile(r.keys, 0.95)),
          note: `${typed.length} keys; p50 ${quantile(typed, 0.5).toFixed(0)} ms`,
        })
      : metric({
          name: `(d) 2,000 turns, ${label}: key → echo p95 while the history is written`,
          unit: "ms",
          skip: "the history was all written before the first key echoed",
        }),
    ...phaseMetrics(label, runs),
  ];
}

const notes = [
  `session: ${UPDATES} updates (${Object.entries(mixOf(turns))
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ", ",
    )}) in ${turns.length} turns; conch's log ${(logBytes / 1e6).toFixed(1)} MB, ${logEvents} events; the demo agent coalesces chunks of a message in its store, so its session/load replays ${written.replayUpdates} updates`,
  "time to interactive = the input prompt is drawn and the session is open (the placeholder invites a message, so what is typed is sent at once); full history = the whole transcript is in the terminal (lib/transcript-reader.mjs: every prompt in order and the end marker, which ends the last answer, exactly once; the live preview of the newest rows, drawn while the backlog is written, does not count); peak RSS = conch's VmHWM read after that",
  "one warm-up run of each path is not counted",
  long &&
    `(d): ${LONG_TURNS} turns (generateLongSession: each a prompt and a markdown answer with a heading, a list and a fenced code block; a thought in half, a tool call with output or a diff in every third), conch's log ${(long.logBytes / 1e6).toFixed(1)} MB; a key typed 50 ms after spawn, timed until the editor shows it (the App's, or the instant prompt where it is the App's editor: lib/tui.mjs; an older build's echo-only instant prompt does not count); then a letter every 30-60 ms while the history is still being written; whole transcript in scrollback = every prompt and every answer's heading in order and the end marker exactly once (lib/transcript-reader.mjs), timed by the PTY read that completed it`,
];
if (innerError) notes.push(`(a) in-process render failed: ${innerError}`);
for (const e of new Set(cliErrors)) notes.push(`a CLI run failed: ${e}`);
for (const [label, runs] of [
  ["(b)", viaLoad],
  ["(c)", viaLog],
])
  if (runs.some((r) => !r.drawn)) notes.push(`${label}: in some runs the terminal did not hold the whole transcript at the end`);

report(args, {
  bench: "replay",
  title: `--resume of a ${UPDATES}-update session`,
  metrics: [
    ...(long
      ? LONG_BUILDS.flatMap(({ name }, k) => [
          ...longMetrics(`agent can't load${name ? `, ${name}` : ""}`, longRuns[k].log),
          ...longMetrics(`demo loads${name ? `, ${name}` : ""}`, longRuns[k].load),
        ])
      : []),
    ...(PARTS.includes("bc")
      ? [
          metric({
            name: "(c) CLI, agent can't load: time to interactive",
            unit: "ms",
            values: viaLog.map((r) => r.interactive),
            goal: { op: "<=", value: 500 },
          }),
          metric({ name: "(c) CLI, agent can't load: full history drawn", unit: "ms", values: viaLog.map((r) => r.history) }),
          metric({
            name: "(c) CLI, agent can't load: conch peak RSS",
            unit: "MiB",
            values: viaLog.map((r) => r.hwmMiB),
            goal: { op: "<=", value: 400 },
          }),
          metric({
            name: "(b) CLI, demo loads: time to interactive",
            unit: "ms",
            values: viaLoad.map((r) => r.interactive),
            goal: { op: "<=", value: 500 },
          }),
          metric({ name: "(b) CLI, demo loads: full history drawn", unit: "ms", values: viaLoad.map((r) => r.history) }),
          metric({
            name: "(b) CLI, demo loads: conch peak RSS",
            unit: "MiB",
            values: viaLoad.map((r) => r.hwmMiB),
            goal: { op: "<=", value: 400 },
          }),
          metric({ name: "(b) CLI, demo loads: agent peak RSS", unit: "MiB", values: viaLoad.map((r) => r.agentHwmMiB) }),
        ]
      : []),
    ...inProcessMetrics(),
  ],
  notes: notes.filter(Boolean),
});

function inProcessMetrics() {
  if (!PARTS.includes("a")) return [];
  const skip = innerError ? `failed: ${innerError}` : undefined;
  return [
    metric({ name: "(a) in-process: prepareSession (index + log)", unit: "ms", values: inner.map((r) => r.prepareMs), skip }),
    metric({ name: "(a) in-process: foldEvents of the log", unit: "ms", values: inner.map((r) => r.foldMs), skip }),
    metric({ name: "(a) in-process: first render of the App", unit: "ms", values: inner.map((r) => r.renderMs), skip }),
    metric({
      name: "(a) in-process: total to full history",
      unit: "ms",
      values: inner.map((r) => r.markerMs),
      goal: { op: "<=", value: 1000 },
      skip,
    }),
    metric({ name: "(a) in-process: peak RSS", unit: "MiB", values: inner.map((r) => r.hwmMiB), goal: { op: "<=", value: 400 }, skip }),
  ];
}

// ---- the in-process path, run in a child so its memory is its own ---------------------------------------
function runInner(cfg) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(BENCH, "replay.mjs"), "--inner-fold", JSON.stringify(cfg)], {
      env: isolatedEnv(dir, { CONCH_STATE_DIR: cfg.root }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    // Ink restores the cursor on stderr at exit; only real messages are passed on.
    child.stderr.on("data", (d) => {
      const text = d
        .toString()
        .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
        .trim();
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

async function innerFold({ id, cwd, marker, updates }) {
  // As the CLI does before it loads React (run-interactive.ts).
  process.env.NODE_ENV ??= "production";
  const { Writable, PassThrough } = await import("node:stream");
  const { createElement } = await import("react");
  const { render } = await import("ink");
  const { App } = await import("../dist/ui/app/app.js");
  const { prepareSession } = await import("../dist/cli/session-setup.js");
  const { foldEvents } = await import("../dist/session/reduce.js");
  /** Everything written, with when: read back through an emulator after the run, so parsing it is not timed. */
  const written = [];
  let sawMarker = false;
  let tail = "";
  let bytes = 0;
  let inkError;
  const t0 = performance.now();
  const stdout = new Writable({
    write(chunk, _enc, cb) {
      const s = chunk.toString();
      written.push({ t: performance.now(), data: s });
      bytes += s.length;
      if (!inkError && /\n\s+ERROR\s/.test(s))
        inkError = s
          .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "")
          .trim()
          .split("\n")
          .slice(0, 3)
          .join(" ");
      sawMarker ||= (tail + s).includes(marker);
      tail = s.slice(-marker.length);
      cb();
    },
  });
  Object.assign(stdout, { columns: 100, rows: 30, isTTY: true });
  const stdin = new PassThrough();
  Object.assign(stdin, { isTTY: true, setRawMode: () => stdin, ref: () => stdin, unref: () => stdin });
  const prepared = await prepareSession({ resume: id, cwd, continue: false }, "ask");
  const t1 = performance.now();
  const history = prepared.orchestrator.opts.loadHistory ? (await prepared.orchestrator.opts.loadHistory()).events : [];
  const state = foldEvents(history);
  const t2 = performance.now();
  // A read-only session: the folded state, and no-op intents (whatever the SessionPort interface grows).
  const base = { state, subscribe: () => () => {}, terminals: undefined };
  const port = new Proxy(base, {
    get: (target, key) => (key in target ? target[key] : typeof key === "string" && key !== "then" ? async () => {} : undefined),
  });
  const ink = render(createElement(App, { session: port, agentName: "demo", cwd }), {
    stdout,
    stdin,
    stderr: stdout,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const t3 = performance.now();
  // The backlog goes out in slices a macrotask apart: once the end was drawn and nothing was
  // written for 500 ms, the writing is over.
  const deadline = Date.now() + 60_000;
  const quiet = () => sawMarker && performance.now() - (written.at(-1)?.t ?? 0) > 500;
  while (!quiet() && !inkError && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  const hwm = memKiB(process.pid)?.hwm ?? NaN;
  ink.unmount();
  const wholeAt = await replayForWhole(written, { cols: 100, rows: 30, updates, marker });
  process.stdout.write(
    `${JSON.stringify({ prepareMs: t1 - t0, foldMs: t2 - t1, renderMs: t3 - t2, markerMs: wholeAt - t0, hwmMiB: hwm / 1024, items: state.items.length, bytes, error: inkError ?? (Number.isNaN(wholeAt) ? "the whole transcript was never written" : undefined) })}\n`,
  );
}

/** When the write that completed the whole transcript (`lib/transcript-reader.mjs`) was made: the writes played into an emulator one by one. */
async function replayForWhole(written, { cols, rows, updates, marker }) {
  const { default: xterm } = await import("@xterm/headless");
  const { landmarksOf, TranscriptReader, wholeOnScreen } = await import("./lib/transcript-reader.mjs");
  const { generateTurns } = await import("./lib/session-gen.mjs");
  const term = new xterm.Terminal({ cols, rows, scrollback: 200_000, allowProposedApi: true });
  const test = wholeOnScreen(new TranscriptReader({ landmarks: landmarksOf(generateTurns({ updates, marker })), marker }));
  const run = { term };
  const lines = () => {
    const buf = term.buffer.active;
    return Array.from({ length: rows }, (_, y) => buf.getLine(buf.viewportY + y)?.translateToString(true) ?? "");
  };
  try {
    for (const { t, data } of written) {
      await new Promise((resolve) => term.write(data, resolve));
      if (test(lines(), run)) return t;
    }
    return NaN;
  } finally {
    term.dispose();
  }
}
