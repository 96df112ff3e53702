#!/usr/bin/env node
// startup: `conch --agent demo` (and real agents) in a 100x30 pseudo-terminal, measured as a user
// meets it. Each figure is over --runs launches (20; --quick 5), median and p95:
//   - the first keystroke echoed by the live editor (a key typed at 50 ms): the App's editor, or
//     the instant prompt, which is that editor before Ink loads (the same keys and buffer, the
//     App's rows; see lib/tui.mjs); an older build's echo-only instant prompt does not count;
//   - the App's first full frame (drawn by the instant prompt, where it is the App's editor);
//   - a prompt typed at 50 ms: when it is on the wire (session/prompt written to --trace), and how
//     long after the agent answered session/new; with the demo agent and, when ../shared/real-agents
//     is there, with claude and codex;
//   - a fuzz: --fuzz launches (100; --quick 10), random text and Enter typed at random times in the
//     first 2 s; every submitted prompt must reach the agent exactly once, in order;
//   - what each lazily loaded module costs, and where a launch's CPU time goes (a --cpu-prof).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  BIN,
  DIST,
  ROOT,
  log,
  median,
  metric,
  numOpt,
  parseArgs,
  projectRun,
  quantile,
  report,
  staleBuild,
  tempDir,
  waitForBuild,
} from "./lib/common.mjs";
import { keyEchoRun, launch, promptsOf, typedPromptRun } from "./lib/startup-probe.mjs";
import { rng } from "./lib/session-gen.mjs";
import { hasAppFrame, hasPrompt, TuiRun } from "./lib/tui.mjs";

const args = parseArgs();
const RUNS = numOpt(args, "runs", 20, 5);
const FUZZ = numOpt(args, "fuzz", 100, 10);
const SEED = numOpt(args, "seed", 12);
const KIT = path.resolve(ROOT, "..", "shared", "real-agents");
const REAL = args.opts["no-real"]
  ? []
  : String(args.opts.real ?? "claude:s1-text,codex:c1")
      .split(",")
      .filter(Boolean);
const dir = tempDir("startup");
const BUNDLE = path.join(DIST, "bundle");
const notes = [];

if (!(await waitForBuild(["dist/bundle/conch.js", "dist/bundle/meta.json"], numOpt(args, "wait-build", 60, 5) * 1000))) {
  report(args, {
    bench: "startup",
    title: "conch's start, as a user meets it",
    metrics: [
      metric({
        name: "first keystroke echoed",
        unit: "ms",
        goal: { op: "<=", value: 150 },
        skip: "the bundle is not built (dist/bundle): run npm run build",
      }),
    ],
  });
  process.exit(0);
}
if (staleBuild()) notes.push("dist/ is older than src/: this measured the last build, not the current sources");

const p95 = (values) => quantile(values, 0.95);
/** A figure over runs: median (goal, status) plus its p95 in the name's note. */
function figure({ name, values, goal, note }) {
  const m = metric({ name, unit: "ms", values, goal, note });
  if (m.n) m.p95 = Math.round(p95(values) * 10) / 10;
  if (m.n) m.note = [`p95 ${m.p95.toFixed(0)} ms`, note].filter(Boolean).join("; ");
  return m;
}

// ---- a key typed at 50 ms, and a prompt typed at 50 ms, with the demo agent ----------------------

log("startup: warm-up launch (not counted)");
await keyEchoRun({ agentArgs: ["--agent", "demo"], ...projectRun(dir, "warm") });
const keys = [];
for (let i = 0; i < RUNS; i++) {
  const r = await keyEchoRun({ agentArgs: ["--agent", "demo"], ...projectRun(dir, `key-${i}`) });
  log(`startup: key ${i + 1}/${RUNS}: App frame ${r.app.toFixed(0)} ms, key echoed by the editor ${r.echoed.toFixed(0)} ms`);
  keys.push(r);
}
const prompts = [];
for (let i = 0; i < RUNS; i++) {
  const r = await typedPromptRun({ agentArgs: ["--agent", "demo"], ...projectRun(dir, `prompt-${i}`) });
  log(
    `startup: prompt ${i + 1}/${RUNS}: session open ${r.sessionOpen.toFixed(0)} ms, prompt on the wire ${r.onWire.toFixed(0)} ms (${r.afterSessionOpen} ms after session/new answered)`,
  );
  prompts.push(r);
}
const wrongText = prompts.filter((p) => p.text !== "hello").length;
if (wrongText) notes.push(`${wrongText} launch(es) sent something other than the typed "hello"`);

// ---- real agents, through ../shared/real-agents ----------------------------------------------------

/** Runs the probe inside with-agent; resolves with its runs, or a reason it could not. */
function realAgentRuns(agent, script) {
  if (!existsSync(path.join(KIT, "with-agent"))) return { skip: "../shared/real-agents is not there" };
  const out = path.join(dir, `real-${agent}.json`);
  const probe = path.join(ROOT, "bench", "lib", "startup-probe.mjs");
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(probe)} --runs ${RUNS} --out ${JSON.stringify(out)}`;
  log(`startup: ${agent}: ${RUNS} launches through with-agent ${agent} ${script}`);
  const r = spawnSync(path.join(KIT, "with-agent"), [agent, script, command], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, WITH_AGENT_QUIET: "1" },
    timeout: 20 * 60_000,
  });
  if (!existsSync(out))
    return {
      skip: `with-agent ${agent} ended with ${r.status ?? r.signal} and no result (is the agent installed? ../shared/real-agents/setup ${agent})`,
    };
  return { runs: JSON.parse(readFileSync(out, "utf8")) };
}
const realMetrics = [];
for (const spec of REAL) {
  const [agent, script] = spec.split(":");
  const got = realAgentRuns(agent, script);
  if (got.skip) {
    realMetrics.push(metric({ name: `${agent}: prompt typed at 50 ms on the wire`, unit: "ms", skip: got.skip }));
    continue;
  }
  const ok = got.runs.filter((r) => !r.error);
  const failed = got.runs.length - ok.length;
  realMetrics.push(
    figure({ name: `${agent}: session open (session/new answered)`, values: ok.map((r) => r.sessionOpen) }),
    figure({
      name: `${agent}: prompt typed at 50 ms on the wire`,
      values: ok.map((r) => r.onWire),
      note: failed ? `${failed} launch(es) failed: ${got.runs.find((r) => r.error)?.error}` : undefined,
    }),
    figure({
      name: `${agent}: prompt on the wire after session/new answered`,
      values: ok.map((r) => r.afterSessionOpen),
      goal: { op: "<=", value: 50 },
    }),
    figure({ name: `${agent}: App's first full frame`, values: ok.map((r) => r.app), goal: { op: "<=", value: 400 } }),
  );
  const closes = ok.map((r) => r.closeMs).filter((x) => Number.isFinite(x));
  if (closes.length) realMetrics.push(figure({ name: `${agent}: session/close answered (on quit)`, values: closes }));
  else notes.push(`${agent} does not advertise session/close (or never answered it): conch stopped it without`);
}

// ---- the fuzz ---------------------------------------------------------------------------------------

/** 1–4 prompts of random words (no demo keyword can come of these letters), cut into writes at random times in the first 2 s. */
function fuzzPlan(random) {
  const letters = "bcdfgjkmpqvwxz";
  const word = () => Array.from({ length: 2 + Math.floor(random() * 5) }, () => letters[Math.floor(random() * letters.length)]).join("");
  const expected = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
    Array.from({ length: 1 + Math.floor(random() * 3) }, word).join(" "),
  );
  const stream = expected.map((t) => `${t}\r`).join("");
  const writes = [];
  for (let i = 0; i < stream.length;) {
    const n = 1 + Math.floor(random() * 6);
    writes.push(stream.slice(i, i + n));
    i += n;
  }
  const times = writes.map(() => Math.floor(random() * 2000)).sort((a, b) => a - b);
  return { expected, keys: writes.map((text, i) => ({ at: times[i], text })) };
}

const random = rng(SEED);
const fuzz = { launches: 0, prompts: 0, lost: 0, failures: [] };
for (let i = 0; i < FUZZ; i++) {
  const plan = fuzzPlan(random);
  const { cwd, env } = projectRun(dir, `fuzz-${i}`);
  let sent;
  try {
    sent = await launch({
      agentArgs: ["--agent", "demo", "--quiet-ms", "0"],
      cwd,
      env,
      keys: plan.keys,
      done: async (run, trace) => {
        await new Promise((r) => setTimeout(r, Math.max(0, 2100 - run.now())));
        await trace
          .until((e) => promptsOf(e).length >= plan.expected.length, 15_000, `${plan.expected.length} prompts`)
          .catch(() => undefined);
        // Anything sent twice would follow the last answer at once.
        await new Promise((r) => setTimeout(r, 300));
        return promptsOf(trace.entries).map((p) => p.text);
      },
    });
  } catch (err) {
    sent = [`(launch failed: ${err.message.split("\n")[0]})`];
  }
  fuzz.launches++;
  fuzz.prompts += plan.expected.length;
  const same = sent.length === plan.expected.length && sent.every((t, j) => t === plan.expected[j]);
  if (!same) {
    // Prompts typed that did not arrive exactly once, in place.
    fuzz.lost += plan.expected.filter((t, j) => sent[j] !== t).length || 1;
    fuzz.failures.push({ launch: i, typed: plan.expected, sent, keys: plan.keys });
  }
  log(
    `startup: fuzz ${i + 1}/${FUZZ}: typed ${plan.expected.length} prompt(s) in ${plan.keys.length} writes: ${same ? "all arrived once, in order" : `MISMATCH: sent ${JSON.stringify(sent)}`}`,
  );
}
for (const f of fuzz.failures.slice(0, 3))
  notes.push(
    `fuzz launch ${f.launch} (seed ${SEED}): typed ${JSON.stringify(f.typed)}, the agent got ${JSON.stringify(f.sent)}; writes ${JSON.stringify(f.keys)}`,
  );

// ---- what the lazily loaded modules cost, and where a launch's time goes ------------------------------

const meta = JSON.parse(readFileSync(path.join(BUNDLE, "meta.json"), "utf8"));
/**
 * The bundle's output file whose entry point (a lazily imported module) matches `re`. Exactly one
 * must: `highlight.js/lib/core` and `highlight.js` (every grammar) are both entry points, and a
 * pattern that matched both timed whichever esbuild happened to list first (7.5 ms instead of ~109).
 */
function chunkFor(re) {
  const found = Object.entries(meta.outputs).filter(([, o]) => o.entryPoint && re.test(o.entryPoint));
  if (found.length !== 1)
    throw new Error(`${re} names ${found.length} chunks of the bundle: ${found.map(([, o]) => o.entryPoint).join(", ")}`);
  return found[0][0];
}
/**
 * What importing a lazily loaded chunk costs once conch's TUI is up (when the App first needs it):
 * in a fresh Node, the App's chunk and `after` are imported first, then the chunk is timed with
 * whatever of its imports the App had not loaded (diff's code is a chunk shared with `conch export`,
 * which the TUI does not load: it is part of diff's cost).
 */
function chunkCost(out, after = []) {
  const first = [chunkFor(/src\/ui\/app\/app\.tsx$/), ...after].map((o) => path.resolve(ROOT, o));
  const script = `for (const d of ${JSON.stringify(first)}) await import(d); const t = performance.now(); await import(${JSON.stringify(path.resolve(ROOT, out))}); process.stdout.write(String(performance.now() - t));`;
  return Number(
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" } }),
  );
}
/** Cost of importing a chunk with everything it imports, in a fresh Node. */
function importCost(out) {
  const script = `const t = performance.now(); await import(${JSON.stringify(path.resolve(ROOT, out))}); process.stdout.write(String(performance.now() - t));`;
  return Number(
    execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, env: { ...process.env, NODE_ENV: "production" } }),
  );
}
/** Cost of a package conch requires from node_modules at first use (not bundled). */
function requireCost(name) {
  const script = `const { createRequire } = require("node:module"); const r = createRequire(${JSON.stringify(path.join(BUNDLE, "x.js"))}); const t = performance.now(); r(${JSON.stringify(name)}); process.stdout.write(String(performance.now() - t));`;
  return Number(execFileSync(process.execPath, ["-e", script], { cwd: ROOT }));
}
const lazy = [
  [
    // The grammars: highlight.js's core is loaded before them (render-libs.ts), so it is not part of this.
    "highlight.js (every grammar)",
    () => chunkCost(chunkFor(/node_modules\/highlight\.js\/lib\/index\.js$/), [chunkFor(/node_modules\/highlight\.js\/lib\/core\.js$/)]),
  ],
  ["marked", () => chunkCost(chunkFor(/node_modules\/marked\//))],
  ["diff", () => chunkCost(chunkFor(/node_modules\/diff\//))],
  ["@xterm/headless (first terminal)", () => requireCost("@xterm/headless")],
  ["node-pty (first terminal)", () => requireCost("@lydell/node-pty")],
  [
    "the TUI (Ink, React, conch's UI), for comparison: loaded at start, behind the agent",
    () => importCost(chunkFor(/src\/ui\/app\/app\.tsx$/)),
  ],
];
const lazyMetrics = [];
for (const [name, cost] of lazy) {
  const values = [];
  for (let i = 0; i < (args.quick ? 2 : 5); i++) {
    try {
      values.push(cost());
    } catch (err) {
      log(`startup: could not time ${name}: ${err.message.split("\n")[0]}`);
    }
  }
  lazyMetrics.push(
    metric({
      name: `load cost: ${name}`,
      unit: "ms",
      values,
      note: name.startsWith("the TUI") ? undefined : "loaded when first needed, not at start",
    }),
  );
}

/** One launch under --cpu-prof: self time by bundle file, each named by what it mostly holds. */
async function profileLaunch() {
  const profDir = path.join(dir, "profile");
  rmSync(profDir, { recursive: true, force: true });
  const run = new TuiRun({
    args: [],
    commandArgs: ["--cpu-prof", `--cpu-prof-dir=${profDir}`, BIN, "--agent", "demo"],
    ...projectRun(dir, "profile-run"),
  });
  try {
    await run.waitFor((lines) => hasAppFrame(lines) && lines.some((l) => /message the agent/.test(l)), 30_000, "the session to be ready");
  } finally {
    await run.stop();
  }
  const file = readdirSync(profDir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) return [];
  const p = JSON.parse(readFileSync(path.join(profDir, file), "utf8"));
  const self = new Map();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const label = (url) => {
    const out = Object.keys(meta.outputs).find((o) => url.endsWith(`/${o}`));
    if (!out) return url.startsWith("node:") || !url ? "Node itself (module loader, fs, GC, …)" : path.basename(url);
    const pkgs = {};
    for (const [f, v] of Object.entries(meta.outputs[out].inputs)) {
      const k = (f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/) ?? [undefined, "conch"])[1];
      pkgs[k] = (pkgs[k] ?? 0) + v.bytesInOutput;
    }
    return `${path.basename(out)} (${Object.entries(pkgs)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([k]) => k)
      .join(", ")})`;
  };
  const by = new Map();
  for (const n of p.nodes) {
    const us = self.get(n.id) ?? 0;
    if (!us) continue;
    const k = n.callFrame.url ? label(n.callFrame.url) : `(${n.callFrame.functionName || "program"})`;
    by.set(k, (by.get(k) ?? 0) + us / 1000);
  }
  return [...by]
    .filter(([k]) => k !== "((idle))")
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
}
const profile = await profileLaunch().catch((err) => {
  log(`startup: the profile launch failed: ${err.message.split("\n")[0]}`);
  return [];
});
if (profile.length)
  notes.push(
    `a launch under --cpu-prof until the session is ready, self time: ${profile.map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`).join("; ")}`,
  );

const bare = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  execFileSync(process.execPath, ["-e", "0"]);
  bare.push(performance.now() - t0);
}
notes.push(`node -e 0 takes ${median(bare).toFixed(0)} ms here: no figure above can be lower`);

report(args, {
  bench: "startup",
  title: "conch's start in a 100x30 PTY, as a user meets it (median; p95 in the note)",
  metrics: [
    figure({
      name: "first keystroke echoed by the live editor",
      values: keys.map((r) => r.echoed),
      goal: { op: "<=", value: 150 },
      note: "a key typed at 50 ms",
    }),
    figure({ name: "App's first full frame", values: keys.map((r) => r.app), goal: { op: "<=", value: 400 } }),
    figure({ name: "demo: session open (session/new answered)", values: prompts.map((r) => r.sessionOpen) }),
    figure({ name: "demo: prompt typed at 50 ms on the wire", values: prompts.map((r) => r.onWire) }),
    figure({
      name: "demo: prompt on the wire after session/new answered",
      values: prompts.map((r) => r.afterSessionOpen),
      goal: { op: "<=", value: 50 },
    }),
    figure({ name: "demo: session/close answered (on quit)", values: prompts.map((r) => r.closeMs).filter((x) => Number.isFinite(x)) }),
    ...realMetrics,
    metric({
      name: `fuzz: prompts lost, doubled or changed (${fuzz.prompts} typed in ${fuzz.launches} launches)`,
      unit: "prompts",
      values: [fuzz.lost],
      goal: { op: "<=", value: 0 },
    }),
    ...lazyMetrics,
    metric({ name: "first frame with a prompt (the instant prompt)", unit: "ms", values: keys.length ? await instantPromptTimes() : [] }),
  ],
  notes,
});

/** When the instant prompt appears: a few launches of their own (the other runs type at once). */
async function instantPromptTimes() {
  const out = [];
  for (let i = 0; i < Math.min(RUNS, 5); i++) {
    const run = new TuiRun({ args: ["--agent", "demo"], ...projectRun(dir, `instant-${i}`) });
    try {
      out.push(await run.waitFor(hasPrompt, 15_000, "a prompt"));
    } finally {
      await run.stop();
    }
  }
  return out;
}
