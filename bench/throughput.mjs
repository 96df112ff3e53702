#!/usr/bin/env node
// throughput: a flooding agent through the whole of `conch -p`, end to end. `lib/flood-agent.mjs`
// answers one prompt with N session/update lines (made before the prompt comes, so only conch's
// reading is timed: the agent's writes wait for the pipe, which drains as conch reads), of one kind:
// chunks (agent_message_chunk into one message), tools (tool_call + completed update pairs),
// malformed (every other line not JSON-RPC), messages (a new message every 10 chunks).
// Per kind: updates/s from the flood's first write to conch's result on stdout (`--output-format
// json`, so the figure includes the session log, the reducer, the turn machine and the result;
// `--quiet-ms 0`: the flood agent is unknown to conch, which would otherwise wait out 500 ms of
// quiet after its answer, a fixed wait that is not throughput);
// the first half's and the second half's rate (a cost that grows with the session shows as a
// slower second half); conch's peak RSS (VmHWM). Goals: ≥ 150k chunks/s; second half ≥ 0.8× the first;
// for tools, peak RSS ≤ 512 MiB (issue 24 measures it at --n 300000: ~150,000 calls).
//
// `--format stream-json` times the same run with `--output-format stream-json` (to its result line);
// `--bin <conch.js>` runs another build (an A/B pair with one bench). `--slope-n 800000` also runs
// the tools flood at that many updates and reports how much conch's peak RSS grows per finished
// call between the two sizes (issue 24: flat, print mode keeps no finished call in memory).
//
//   npm run build && node bench/throughput.mjs [--n 200000] [--runs 3] [--kinds chunks,tools] [--format stream-json] [--slope-n 800000] [--json]
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { BENCH, BIN, ROOT, isolatedEnv, log, metric, numOpt, parseArgs, report, tempDir } from "./lib/common.mjs";
import { cpuSeconds, memKiB } from "./lib/proc.mjs";

const args = parseArgs();
const N = numOpt(args, "n", 200_000, 50_000);
const SLOPE_N = numOpt(args, "slope-n", 0);
const RUNS = numOpt(args, "runs", 3, 1);
const KINDS = typeof args.opts.kinds === "string" ? args.opts.kinds.split(",") : ["chunks", "tools", "malformed", "messages"];
const FORMAT = args.opts.format === "stream-json" ? "stream-json" : "json";
const CONCH = typeof args.opts.bin === "string" ? path.resolve(args.opts.bin) : BIN;
const AGENT = `${process.execPath} ${path.join(BENCH, "lib", "flood-agent.mjs")}`;

/** One `conch -p` against the flood; times in ms since the epoch, on this machine's one clock. */
function runOnce(kind, dir, i, n = N) {
  const timesFile = path.join(dir, `times-${kind}-${i}.json`);
  const env = isolatedEnv(dir, { FLOOD_KIND: kind, FLOOD_N: String(n), FLOOD_TIMES: timesFile });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CONCH, "-p", "flood", "--agent", AGENT, "--output-format", FORMAT, "--quiet-ms", "0"], {
      cwd: workspace,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let resultAt;
    // Kept as chunks: `stdout += d` and a search in it flattens the whole string on every read, which
    // cost this process ~0.4 s of CPU per stream-json flood, on the same cores and before it could
    // see the result line (so it delayed the figure it measures).
    const chunks = [];
    let tail = "";
    let stderr = "";
    let peakKiB = 0;
    let cpuS = 0;
    // VmHWM is the process's own peak: one read just before it exits would do, but it may exit between reads.
    const sampler = setInterval(() => {
      const m = memKiB(child.pid);
      if (m && Number.isFinite(m.hwm)) peakKiB = Math.max(peakKiB, m.hwm);
      // Sampled like the peak: the last reading before the process is gone (up to 20 ms short).
      if (resultAt === undefined) cpuS = cpuSeconds(child.pid) || cpuS;
    }, 20);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      chunks.push(d);
      // stream-json's lines come all along: the run is timed to its last line, the result.
      const text = tail + d;
      if (FORMAT === "json" || text.includes('"type":"result"')) resultAt ??= Date.now();
      tail = text.slice(-20);
    });
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(sampler);
      let times;
      try {
        times = JSON.parse(readFileSync(timesFile, "utf8"));
      } catch {
        reject(new Error(`the flood agent left no times (exit ${code}): ${stderr.slice(-400)}`));
        return;
      }
      const stdout = chunks.join("");
      let result;
      try {
        result = JSON.parse(FORMAT === "json" ? stdout : stdout.trimEnd().split("\n").pop());
      } catch {
        reject(new Error(`conch printed no result (exit ${code}): ${stderr.slice(-400)}`));
        return;
      }
      if (code !== 0 || result.stopReason !== "end_turn") {
        reject(new Error(`conch exited ${code} (${result.error ?? result.stopReason})`));
        return;
      }
      const total = (resultAt - times.first) / 1000;
      const first = (times.half - times.first) / 1000;
      const second = (resultAt - times.half) / 1000;
      resolve({
        rate: n / total,
        firstRate: times.halfAt / first,
        secondRate: (n - times.halfAt) / second,
        peakMiB: peakKiB / 1024,
        cpuS,
        textChars: result.text.length,
        tools: result.toolCalls.length,
      });
    });
  });
}

const dir = tempDir("conch-bench-throughput-");
// The project conch runs in, beside its state dir (`dir/state`) as a user's is, not around it: a
// build that checkpoints its own state dir would time the recording of its own logs.
const workspace = path.join(dir, "work");
mkdirSync(workspace);
const metrics = [];
const notes = [
  `${N.toLocaleString("en-US")} updates per run, ${RUNS} runs per kind after one warm-up; rate = updates / (conch's result on stdout − the flood's first write); --quiet-ms 0 (no wait for late updates from an unknown agent)`,
];
for (const kind of KINDS) {
  log(`throughput: ${kind}, warm-up`);
  await runOnce(kind, dir, "warm");
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await runOnce(kind, dir, i);
    log(
      `throughput: ${kind} run ${i + 1}: ${Math.round(r.rate)}/s (first half ${Math.round(r.firstRate)}/s, second ${Math.round(r.secondRate)}/s), peak RSS ${r.peakMiB.toFixed(0)} MiB, CPU ${r.cpuS.toFixed(2)} s (to the result)`,
    );
    runs.push(r);
  }
  const chunks = kind === "chunks";
  metrics.push(
    metric({
      name: `${kind}: updates/s end to end`,
      unit: "updates/s",
      values: runs.map((r) => r.rate),
      goal: chunks ? { op: ">=", value: 150_000 } : undefined,
    }),
  );
  metrics.push(
    metric({
      name: `${kind}: second half / first half`,
      unit: "x",
      values: runs.map((r) => r.secondRate / r.firstRate),
      goal: { op: ">=", value: 0.8 },
    }),
  );
  metrics.push(metric({ name: `${kind}: conch CPU to the result`, unit: "s", values: runs.map((r) => r.cpuS) }));
  // A flood of calls: print mode spools the finished ones (the result lists them all), its peak is held to a bound.
  metrics.push(
    metric({
      name: `${kind}: conch peak RSS`,
      unit: "MiB",
      values: runs.map((r) => r.peakMiB),
      goal: kind === "tools" ? { op: "<=", value: 512 } : undefined,
    }),
  );
}
if (KINDS.includes("tools") && SLOPE_N > N) {
  // Runs at both sizes, one after the other, so the machine's state weighs on both alike.
  const small = [];
  const large = [];
  for (let i = 0; i < RUNS; i++) {
    small.push((await runOnce("tools", dir, `slope-${i}`)).peakMiB);
    large.push((await runOnce("tools", dir, `slope-large-${i}`, SLOPE_N)).peakMiB);
    log(`throughput: tools peak RSS at ${N} / ${SLOPE_N} updates: ${small.at(-1).toFixed(0)} / ${large.at(-1).toFixed(0)} MiB`);
  }
  const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  const perCall = ((median(large) - median(small)) * 1024 * 1024) / ((SLOPE_N - N) / 2);
  metrics.push(metric({ name: `tools: peak RSS growth per finished call (${N} → ${SLOPE_N} updates)`, unit: "B", values: [perCall] }));
  notes.push(
    "peak RSS per finished call: (median peak at --slope-n − median peak at --n) ÷ the calls between; print mode spools finished calls, so it is ~0 once V8's heap has grown to its working size (~100k calls); the peak of one run varies by ±20 MiB with where V8's full collections fall",
  );
}
report(args, {
  bench: "throughput",
  title: `a flooding agent through conch -p --output-format ${FORMAT} (${path.relative(ROOT, CONCH)})`,
  metrics,
  notes,
});
