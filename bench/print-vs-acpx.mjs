#!/usr/bin/env node
// print-vs-acpx: `conch -p` against acpx (a headless ACP client, pinned below) running the same
// prompt against the same agent command: the demo agent, and a real agent (claude-agent-acp behind
// the offline real-agents kit) when it is installed. Runs alternate conch, acpx, conch, acpx, …
// (plus conch with --quiet-ms 0 after each pair); each run is measured as a whole process tree:
// wall time, user+system CPU of every process in it, peak of the tree's summed RSS. Ratios are
// conch/acpx, pair by pair; the figure is their median. No goal: a comparison.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { BENCH, BIN, DEMO, ROOT, isolatedEnv, log, metric, numOpt, parseArgs, report, tempDir } from "./lib/common.mjs";
import { runMeasured } from "./lib/proc.mjs";

export const ACPX_VERSION = "0.19.1";
const ACPX_PREFIX = path.join(BENCH, ".acpx");
const ACPX = path.join(ACPX_PREFIX, "node_modules", "acpx", "dist", "cli.js");
const KIT = process.env.REAL_AGENTS_KIT_DIR ?? path.resolve(ROOT, "..", "shared", "real-agents");
const REAL_HOME =
  process.env.REAL_AGENTS_HOME ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(process.env.HOME ?? "/root", ".cache"), "real-acp-agents");

const args = parseArgs();
const PAIRS = numOpt(args, "pairs", 5, 2);

/** Installs the pinned acpx into bench/.acpx on first use; returns why not, if it could not. */
function ensureAcpx() {
  if (existsSync(ACPX)) {
    const v = JSON.parse(readFileSync(path.join(ACPX_PREFIX, "node_modules", "acpx", "package.json"), "utf8")).version;
    if (v === ACPX_VERSION) return undefined;
  }
  log(`print-vs-acpx: installing acpx@${ACPX_VERSION} into bench/.acpx`);
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", ACPX_PREFIX, `acpx@${ACPX_VERSION}`], {
    stdio: ["ignore", "inherit", "inherit"],
    encoding: "utf8",
  });
  if (r.status !== 0 || !existsSync(ACPX)) return `npm install acpx@${ACPX_VERSION} failed (exit ${r.status})`;
  return undefined;
}

function acpxRunsOnThisNode() {
  const r = spawnSync(process.execPath, [ACPX, "--version"], { encoding: "utf8" });
  return r.status === 0
    ? undefined
    : `acpx ${ACPX_VERSION} does not start on Node ${process.version}: ${(r.stderr || r.stdout).trim().split("\n")[0]}`;
}

/** Alternating runs against one agent command. Returns the raw measurements. */
async function comparePairs({ agentCmd, prompt, expect, env, cwd, pairs }) {
  const conch = (extra = []) => runMeasured(process.execPath, [BIN, "-p", prompt, "--agent", agentCmd, ...extra], { cwd, env });
  const acpx = () => runMeasured(process.execPath, [ACPX, "--format", "quiet", "--agent", agentCmd, "exec", prompt], { cwd, env });
  const check = (who, r) => {
    if (r.code !== 0)
      return `${who} exited ${r.code ?? `on signal ${r.signal}`}: ${r.stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 300)}`;
    if (expect && !r.stdout.includes(expect)) return `${who}'s output lacks "${expect}": ${r.stdout.slice(0, 200)}`;
    return undefined;
  };
  log("print-vs-acpx: warm-up pair (not counted)");
  await conch();
  await acpx();
  const out = { conch: [], acpx: [], conchQuiet0: [], errors: [] };
  for (let i = 0; i < pairs; i++) {
    const c = await conch();
    const a = await acpx();
    const q = await conch(["--quiet-ms", "0"]);
    for (const [who, r] of [
      ["conch", c],
      ["acpx", a],
      ["conch --quiet-ms 0", q],
    ]) {
      const e = check(who, r);
      if (e) out.errors.push(e);
      if (r.leftovers) out.errors.push(`${who} left ${r.leftovers} process(es) running after it exited (stopped by the bench)`);
    }
    out.conch.push(c);
    out.acpx.push(a);
    out.conchQuiet0.push(q);
    log(
      `print-vs-acpx: pair ${i + 1}/${pairs}: conch ${c.wallMs.toFixed(0)} ms ${c.cpuS.toFixed(2)} s CPU ${c.peakTreeMiB.toFixed(0)} MiB | acpx ${a.wallMs.toFixed(0)} ms ${a.cpuS.toFixed(2)} s CPU ${a.peakTreeMiB.toFixed(0)} MiB | conch --quiet-ms 0 ${q.wallMs.toFixed(0)} ms`,
    );
  }
  for (const list of [out.conch, out.acpx, out.conchQuiet0])
    for (const r of list) {
      delete r.stdout;
      delete r.stderr;
    }
  return out;
}

function metricsFor(label, runs) {
  const ratio = (a, b, k) => a.map((x, i) => x[k] / b[i][k]);
  const { conch, acpx, conchQuiet0: q } = runs;
  return [
    metric({ name: `${label}: conch -p wall`, unit: "ms", values: conch.map((r) => r.wallMs) }),
    metric({ name: `${label}: acpx exec wall`, unit: "ms", values: acpx.map((r) => r.wallMs) }),
    metric({ name: `${label}: wall conch/acpx`, unit: "x", values: ratio(conch, acpx, "wallMs") }),
    metric({ name: `${label}: conch -p --quiet-ms 0 wall`, unit: "ms", values: q.map((r) => r.wallMs) }),
    metric({ name: `${label}: wall conch(--quiet-ms 0)/acpx`, unit: "x", values: ratio(q, acpx, "wallMs") }),
    metric({ name: `${label}: conch CPU (tree)`, unit: "s", values: conch.map((r) => r.cpuS) }),
    metric({ name: `${label}: acpx CPU (tree)`, unit: "s", values: acpx.map((r) => r.cpuS) }),
    metric({ name: `${label}: CPU conch/acpx`, unit: "x", values: ratio(conch, acpx, "cpuS") }),
    metric({ name: `${label}: conch peak RSS (tree)`, unit: "MiB", values: conch.map((r) => r.peakTreeMiB) }),
    metric({ name: `${label}: acpx peak RSS (tree)`, unit: "MiB", values: acpx.map((r) => r.peakTreeMiB) }),
    metric({ name: `${label}: peak RSS conch/acpx`, unit: "x", values: ratio(conch, acpx, "peakTreeMiB") }),
  ];
}

// ---- inside with-agent: measure against $AGENT_CMD and write the raw runs to a file --------------------
if (args.opts["inner-real"]) {
  const dir = tempDir("acpx-real");
  const env = { ...process.env, CONCH_STATE_DIR: path.join(dir, "conch-state") };
  const runs = await comparePairs({
    agentCmd: process.env.AGENT_CMD,
    prompt: "Say hello",
    expect: "Hello from the fake Anthropic API",
    env,
    cwd: process.env.PROJECT ?? process.cwd(),
    pairs: PAIRS,
  });
  writeFileSync(args.opts["inner-real"], JSON.stringify(runs));
  process.exit(0);
}

const metrics = [];
const notes = [];
const whyNot = ensureAcpx() ?? acpxRunsOnThisNode();
if (whyNot) {
  metrics.push(metric({ name: "demo: wall conch/acpx", unit: "x", skip: whyNot }));
} else {
  notes.push(
    `acpx ${ACPX_VERSION} (bench/.acpx), run as \`acpx --format quiet --agent <cmd> exec <prompt>\` (one-shot, no saved session, prints the answer); conch as \`conch -p <prompt> --agent <cmd>\` (text output, default --quiet-ms 1500) and \`… --quiet-ms 0\`; acpx declares engines node >= 22.13 but runs here on ${process.version}`,
  );
  // ---- the demo agent --------------------------------------------------------------------------------------
  const dir = tempDir("acpx");
  const cwd = path.join(dir, "project");
  mkdirSync(cwd, { recursive: true });
  const env = isolatedEnv(dir, { HOME: path.join(dir, "home") });
  mkdirSync(env.HOME, { recursive: true });
  const demoCmd = `${process.execPath} ${DEMO}`;
  const demo = await comparePairs({ agentCmd: demoCmd, prompt: "markdown", expect: "Streaming Markdown", env, cwd, pairs: PAIRS });
  metrics.push(...metricsFor("demo", demo));
  notes.push(`demo: \`${demoCmd}\` with CONCH_DEMO_DELAY_MS=0, prompt "markdown" (thoughts, then a streamed Markdown answer)`);
  for (const e of new Set(demo.errors)) notes.push(`demo: ${e}`);

  // ---- a real agent -----------------------------------------------------------------------------------------
  const withAgent = path.join(KIT, "with-agent");
  const installed = existsSync(path.join(REAL_HOME, "claude", "node_modules", "@zed-industries", "claude-agent-acp"));
  if (args.opts["no-real"]) {
    metrics.push(metric({ name: "claude: wall conch/acpx", unit: "x", skip: "--no-real" }));
  } else if (!existsSync(withAgent)) {
    metrics.push(metric({ name: "claude: wall conch/acpx", unit: "x", skip: `the real-agents kit is not at ${KIT}` }));
  } else if (!installed) {
    metrics.push(metric({ name: "claude: wall conch/acpx", unit: "x", skip: `claude-agent-acp is not installed (${KIT}/setup claude)` }));
  } else {
    const out = path.join(tempDir("acpx-real-out"), "runs.json");
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(BENCH, "print-vs-acpx.mjs"))} --inner-real ${JSON.stringify(out)} --pairs ${PAIRS}`;
    log("print-vs-acpx: claude-agent-acp through with-agent (s1-text)");
    const r = spawnSync(withAgent, ["claude", "scripts/claude/s1-text.json", cmd], {
      cwd: KIT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, WITH_AGENT_QUIET: "1" },
    });
    if (r.status !== 0 || !existsSync(out)) {
      metrics.push(metric({ name: "claude: wall conch/acpx", unit: "x", skip: `with-agent failed (exit ${r.status})` }));
    } else {
      const real = JSON.parse(readFileSync(out, "utf8"));
      metrics.push(...metricsFor("claude", real));
      notes.push(
        'claude: claude-agent-acp 0.23.1 (Claude Code 2.1.83) against the kit\'s fake Anthropic API, script s1-text, prompt "Say hello"; the agent does not exit when its stdin closes, so both clients kill it',
      );
      for (const e of new Set(real.errors)) notes.push(`claude: ${e}`);
    }
  }
}
report(args, {
  bench: "print-vs-acpx",
  title: "conch -p vs acpx exec, same prompt, same agent (ratios conch/acpx, pair by pair)",
  metrics,
  notes,
});
