#!/usr/bin/env node
// first-prompt: the first prompt of a session, as a user meets it (conch --agent demo in a 120x40
// PTY, a fresh workspace and state dir each launch). Two ways a person sends it:
//   - Enter at ready: "hello" typed and Enter pressed the moment the App shows the session ready
//     ("message the agent"): Enter → `session/prompt` on the wire (its line in the --trace file, which
//     conch writes as the message goes out), and Enter → the demo's first reply text on screen;
//   - typed at 50 ms: "hello" and Enter typed 50 ms after spawn, before the session is open: how long
//     after the agent answered `session/new` the prompt went out (trace times).
// Before a first prompt goes out conch records the workspace (its checkpoints, a shadow git
// repository): that is most of both figures. With `--floor` the same runs are also taken with
// checkpoints off (a config.json saying `"checkpoints": false`, the last --bin's build), which is
// what the same path costs without them. `--bin a/bin/conch.js --bin b/bin/conch.js` interleaves launches of several builds
// (A/B pairs: a, b, a, b, …) and reports each; the default is this checkout's build.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BIN, isolatedEnv, log, metric, numOpt, parseArgs, quantile, report, tempDir } from "./lib/common.mjs";
import { launch, promptsOf, typedPromptRun } from "./lib/startup-probe.mjs";
import { isReady } from "./lib/tui.mjs";

const args = parseArgs();
const RUNS = numOpt(args, "runs", 10, 4);
const argv = process.argv.slice(2);
const bins = argv.flatMap((a, i) => (a === "--bin" && argv[i + 1] ? [path.resolve(argv[i + 1])] : []));
if (!bins.length) bins.push(BIN);
const FLOOR = Boolean(args.opts.floor);
const REPLY = /Hello! I'm the conch demo agent/;
const dir = tempDir("first-prompt");

/** Each launch's own workspace and state; checkpoints off through the user config when `off`. */
function envFor(name, off) {
  const cwd = path.join(dir, name, "ws");
  mkdirSync(cwd, { recursive: true });
  const extra = {};
  if (off) {
    const xdg = path.join(dir, name, "xdg");
    mkdirSync(path.join(xdg, "conch"), { recursive: true });
    writeFileSync(path.join(xdg, "conch", "config.json"), JSON.stringify({ checkpoints: false }));
    extra.XDG_CONFIG_HOME = xdg;
  }
  return { cwd, env: isolatedEnv(path.join(dir, name), extra) };
}

/** Enter at ready: when the prompt was on the wire and when the reply showed, both from Enter. */
async function atReady(bin, name, off) {
  const { cwd, env } = envFor(name, off);
  return launch({
    bin,
    agentArgs: ["--agent", "demo"],
    cwd,
    env,
    cols: 120,
    rows: 40,
    done: async (run, trace) => {
      await run.waitFor(isReady, 30_000, "the session to be ready");
      const enter = run.now();
      run.write("hello\r");
      const reply = await run.waitFor((lines) => lines.some((l) => REPLY.test(l)), 30_000, "the first reply");
      const [sent] = await trace.until((e) => (promptsOf(e).length ? promptsOf(e) : undefined), 30_000, "session/prompt");
      return { wire: sent.seenAt - enter, reply: reply - enter };
    },
  });
}

/** Typed at 50 ms: the prompt on the wire, in ms after `session/new` was answered. */
async function typedEarly(bin, name, off) {
  const { cwd, env } = envFor(name, off);
  const r = await typedPromptRun({ bin, agentArgs: ["--agent", "demo"], cwd, env });
  return { after: r.afterSessionOpen };
}

const variants = [
  ...bins.map((bin, b) => ({ label: bins.length > 1 ? `[${b}] ${bin}` : "", bin, off: false })),
  ...(FLOOR ? [{ label: "checkpoints off", bin: bins[bins.length - 1], off: true }] : []),
];
const got = variants.map(() => ({ wire: [], reply: [], after: [] }));
log("first-prompt: warm-up launches (not counted)");
for (const [i, v] of variants.entries()) await atReady(v.bin, `warm-${i}`, v.off);
for (let r = 0; r < RUNS; r++)
  for (const [i, v] of variants.entries()) {
    const a = await atReady(v.bin, `ready-${r}-${i}`, v.off);
    const t = await typedEarly(v.bin, `typed-${r}-${i}`, v.off);
    got[i].wire.push(a.wire);
    got[i].reply.push(a.reply);
    got[i].after.push(t.after);
    log(
      `first-prompt: run ${r + 1}/${RUNS} ${v.label || "this build"}: Enter → on the wire ${a.wire.toFixed(0)} ms, → reply ${a.reply.toFixed(0)} ms; typed at 50 ms: on the wire ${t.after} ms after session/new`,
    );
  }

const figure = (name, values, goal) => {
  const m = metric({ name, unit: "ms", values, goal });
  if (m.n) m.note = `p95 ${quantile(values, 0.95).toFixed(0)} ms`;
  return m;
};
report(args, {
  bench: "first-prompt",
  title: "the first prompt, conch --agent demo in a 120x40 PTY (median; p95 in the note)",
  metrics: variants.flatMap((v, i) => {
    const of = v.label ? ` (${v.label})` : "";
    return [
      figure(`Enter at ready → first reply text${of}`, got[i].reply, v.off ? undefined : { op: "<=", value: 105 }),
      figure(`Enter at ready → session/prompt on the wire${of}`, got[i].wire),
      figure(`typed at 50 ms: on the wire after session/new answered${of}`, got[i].after, v.off ? undefined : { op: "<=", value: 50 }),
    ];
  }),
  notes: [],
});
