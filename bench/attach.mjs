#!/usr/bin/env node
// attach: a permission answered from a second terminal. conch runs the demo agent (behind
// lib/permission-probe-agent.mjs, which notes when a permission request leaves the agent and when
// its answer arrives at the agent's stdin) in a real PTY; `conch attach --write <id>` runs in a
// second PTY. Each round, a prompt typed in the first terminal makes the agent ask; the second
// terminal's screen shows the prompt; "y" is typed there. Figures: from the "y" written to the
// second terminal's PTY to the answer's arrival at the agent (goal ≤ 50 ms), and, for
// information, from the request leaving the agent to the second terminal's screen showing it
// (through the session log the attached view folds).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { BENCH, isolatedEnv, log, metric, numOpt, parseArgs, quantile, report, sleep, tempDir } from "./lib/common.mjs";
import { TuiRun, isReady } from "./lib/tui.mjs";

const args = parseArgs();
const ROUNDS = numOpt(args, "rounds", 20, 5);
const dir = tempDir("attach");
const probeLog = path.join(dir, "probe.jsonl");
writeFileSync(probeLog, "");
const env = isolatedEnv(dir, { PROBE_LOG: probeLog });
// The project is a folder of its own: a state dir inside it would be in every checkpoint of it.
const cwd = path.join(dir, "project");
mkdirSync(cwd);
const agent = `${process.execPath} ${path.join(BENCH, "lib", "permission-probe-agent.mjs")}`;
const epochNow = () => performance.timeOrigin + performance.now();
/** The permission prompt's first option, as the prompt draws it ("› 1 y  Allow once"). */
const PROMPT_OPTION = /\d y\s+Allow once/;

const owner = new TuiRun({ args: ["--agent", agent], env, cwd, cols: 100, rows: 30 });
let other;
const answers = [];
const shown = [];
try {
  await owner.waitFor(isReady, 30_000, "the owner ready");
  let id;
  for (let i = 0; i < 200 && !id; i++) {
    try {
      id = JSON.parse(readFileSync(path.join(env.CONCH_STATE_DIR, "index.json"), "utf8")).sessions?.[0]?.id;
    } catch {
      /* not written yet */
    }
    if (!id) await sleep(50);
  }
  if (!id) throw new Error("the session never reached the index");
  other = new TuiRun({ args: ["attach", "--write", id], env, cwd, cols: 100, rows: 30 });
  await other.waitForLine(/your keys act there/, 20_000, "the second terminal attached");
  const probe = () =>
    readFileSync(probeLog, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  for (let round = 0; round < ROUNDS + 1; round++) {
    const before = probe().length;
    owner.write("permission");
    await sleep(30);
    owner.write("\r");
    await other.waitForLine(PROMPT_OPTION, 20_000, "the permission prompt in the second terminal");
    const seenAt = epochNow();
    const askedAt = probe()
      .slice(before)
      .find((e) => e.event === "asked")?.at;
    const t0 = epochNow();
    other.write("y");
    let answered;
    for (let i = 0; i < 400 && !answered; i++) {
      answered = probe()
        .slice(before)
        .find((e) => e.event === "answered");
      if (!answered) await sleep(5);
    }
    if (!answered) throw new Error(`the answer never reached the agent; the second terminal shows:\n${other.lines().join("\n")}`);
    await owner.waitForLine(/you chose Allow once/, 20_000, "the turn's end in the first terminal");
    await other.waitFor((lines) => !lines.some((l) => PROMPT_OPTION.test(l)), 20_000, "the prompt gone in the second terminal");
    await owner.waitFor(isReady, 20_000, "the owner idle again");
    // The first round warms up both processes (lazily loaded modules): not counted.
    if (round === 0) continue;
    answers.push(answered.at - t0);
    if (askedAt) shown.push(seenAt - askedAt);
    log(
      `attach: round ${round}: key → agent ${(answered.at - t0).toFixed(1)} ms; asked → shown ${askedAt ? (seenAt - askedAt).toFixed(1) : "?"} ms`,
    );
  }
} finally {
  await other?.stop();
  await owner.stop();
}

report(args, {
  bench: "attach",
  title: `a permission answered from a second terminal (conch attach --write), ${ROUNDS} rounds`,
  metrics: [
    metric({ name: "key typed in the second terminal → answer at the agent", unit: "ms", values: answers, goal: { op: "<=", value: 50 } }),
    metric({ name: "the same, p95", unit: "ms", values: [quantile(answers, 0.95)], goal: { op: "<=", value: 50 } }),
    metric({ name: "request sent by the agent → shown in the second terminal (info)", unit: "ms", values: shown }),
  ],
  notes: [
    "the answer's arrival is when its line reaches the agent's stdin (a proxy in front of the demo agent notes it)",
    "the second terminal's screen is fed by the session log (fs.watch on the file), the answer goes over the control socket",
  ],
});
