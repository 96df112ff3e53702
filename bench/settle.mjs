#!/usr/bin/env node
// settle: how long after an agent's real end of work conch's turn is over. The real Orchestrator
// (dist/) runs against the causal trace-replay agent playing recorded real agents, as a child
// process over stdio; prompts go out as the recorded client sent them (each as soon as the one
// before answered, "send now" if the turn still drains; the last after everything settled).
// The figure: from the agent's last message before a drain ends (its turn marker, its prompt
// response, its state update) to the orchestrator's `settled`, per agent family. Goal: <= 50 ms
// where the agent gives a signal. For information: the same with the profile withheld (the agent
// treated as unknown), where conch waits out quiet periods instead.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Orchestrator } from "../dist/orchestrator/orchestrator.js";
import { RegistryTerminalService } from "../dist/orchestrator/terminals/terminal-service.js";
import { DIST, ROOT, log, metric, numOpt, parseArgs, quantile, report } from "./lib/common.mjs";

const args = parseArgs();
const RUNS = numOpt(args, "runs", 5, 2);
const SPEED = numOpt(args, "speed", 2, 4);
const REPLAY = path.join(DIST, "demo", "trace-replay", "main.js");
const TRACES = path.resolve(ROOT, "../shared/traces");

/** Traces whose client only sends prompts (permissions are allowed): the bench can drive them as recorded. */
const CASES = [
  { family: "claude-agent-acp 0.100", trace: "claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl" },
  { family: "claude-agent-acp 0.100", trace: "claude-agent-acp-0.100.0/s2-bash-permission.jsonl" },
  { family: "claude-agent-acp 0.23", trace: "claude-agent-acp-0.23.1/s4-background-bash.terminal_output.jsonl" },
  { family: "claude-agent-acp 0.23", trace: "claude-agent-acp-0.23.1/s3-edit-diff.jsonl" },
  { family: "codex-acp", trace: "codex-acp-0.16.0/c4-meta.jsonl" },
  { family: "codex-acp", trace: "codex-acp-0.16.0/c3.jsonl" },
  { family: "gemini-cli", trace: "gemini-cli-0.61.0/g1.jsonl" },
  { family: "gemini-cli", trace: "gemini-cli-0.61.0/g3.jsonl" },
  { family: "opencode", trace: "opencode-1.18.33/d-long-shell.jsonl" },
  { family: "opencode", trace: "opencode-1.18.33/b-shell-permission.jsonl" },
];

/** The recorded prompts, in order. */
function promptsOf(trace) {
  return readFileSync(path.join(TRACES, trace), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((l) => l.dir === "client" && l.msg?.method === "session/prompt")
    .map((l) => l.msg.params.prompt.map((b) => b.text ?? "").join(""));
}

/** One run of a trace: the settle latencies (ms) of every drain. `anonymous` hides who the agent is. */
async function runOnce(c, anonymous) {
  const cwd = mkdtempSync(path.join(tmpdir(), "conch-bench-settle-"));
  const orch = new Orchestrator({
    agent: {
      name: "replay",
      command: {
        command: process.execPath,
        args: [REPLAY, path.join(TRACES, c.trace), "--causal", "--speed", String(SPEED), "--project", cwd],
      },
      via: "command",
    },
    cwd,
    policy: "approve-all",
    timing: { stallMs: 60_000 },
    terminals: (emit, root) => new RegistryTerminalService(emit, root),
  });
  const latencies = [];
  let lastAgentAt = 0;
  orch.subscribe((state, ev) => {
    if (!ev) return;
    if (ev.type === "agent_ready" && anonymous) return;
    if (ev.type === "update" || ev.type === "prompt_response" || ev.type === "permission_asked") lastAgentAt = performance.now();
    if (ev.type === "settled") latencies.push(performance.now() - lastAgentAt);
  });
  if (anonymous) {
    // The same agent, unknown to conch: no profile, so only quiet periods end its turns.
    const dispatch = orch.dispatch.bind(orch);
    orch.dispatch = (input) =>
      input.type === "agent_ready" ? dispatch({ ...input, info: { name: "unknown-agent", version: "0" } }) : dispatch(input);
  }
  try {
    await orch.start();
    const prompts = promptsOf(c.trace);
    for (let i = 0; i < prompts.length; i++) {
      const last = i === prompts.length - 1 && prompts.length > 1;
      if (last) await orch.waitFor(["idle"]);
      orch.sendNow(prompts[i]);
      const turn = i;
      await orch.until((s) => s.phase === "failed" || s.turns.filter((t) => t.origin === "user")[turn]?.stopReason !== undefined);
    }
    await orch.waitFor(["idle"]);
  } finally {
    await orch.shutdown();
    rmSync(cwd, { recursive: true, force: true });
  }
  return latencies;
}

const byFamily = new Map();
const unknown = [];
for (const c of CASES) {
  for (let r = 0; r < RUNS; r++) {
    const l = await runOnce(c, false);
    byFamily.set(c.family, [...(byFamily.get(c.family) ?? []), ...l]);
    log(`settle: ${c.trace} run ${r + 1}: ${l.map((x) => x.toFixed(1)).join(", ")} ms`);
  }
  unknown.push(...(await runOnce(c, true)));
}

const metrics = [];
for (const [family, values] of byFamily) {
  metrics.push(metric({ name: `${family}: end of work → idle, median`, unit: "ms", values, goal: { op: "<=", value: 50 } }));
  metrics.push(
    metric({ name: `${family}: end of work → idle, p95`, unit: "ms", values: [quantile(values, 0.95)], goal: { op: "<=", value: 50 } }),
  );
}
metrics.push(metric({ name: "same agents unknown to conch (quiet periods), median", unit: "ms", values: unknown }));
report(args, {
  bench: "settle",
  title: `settle latency on recorded real agents (causal replay at ${SPEED}x, ${RUNS} runs each)`,
  metrics,
  notes: ["end of work = the agent's last message before a drain ends (its marker, prompt response or state update)"],
});
