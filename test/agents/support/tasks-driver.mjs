#!/usr/bin/env node
// Runs conch's real Orchestrator (dist/) against the agent with-agent started ($AGENT_ARGV_JSON) and
// prints, as one JSON line each, what the tasks view would list at the points a plan names: the
// tasks derived from the session and the agent's process table, the calls and the phase. The plan
// (argv[2], JSON) is a list of steps: {send}, {until: "idle" | "answered" | "failed"}, {ms},
// {until: "task-running"} (one found among the agent's processes), {until: "no-running-task"}, {snapshot: name}, {kill: true} (SIGKILL to the agent), {shutdown: true}.
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const { Orchestrator } = await import(path.join(ROOT, "dist/orchestrator/orchestrator.js"));
const { RegistryTerminalService } = await import(path.join(ROOT, "dist/orchestrator/terminals/terminal-service.js"));

const plan = JSON.parse(process.argv[2]);
const argv = JSON.parse(process.env.AGENT_ARGV_JSON);
const orch = new Orchestrator({
  agent: { name: "real", command: { command: argv[0], args: argv.slice(1) }, via: "command" },
  cwd: process.env.PROJECT,
  policy: "approve-all",
  timing: { stallMs: 60_000 },
  terminals: (emit, root) => new RegistryTerminalService(emit, root),
});
const deadline = (ms) => new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref());
const until = (pred, ms = 120_000) => Promise.race([orch.until(pred), deadline(ms)]);
const snapshot = async (name) => {
  const s = orch.state;
  const line = {
    snapshot: name,
    phase: s.phase,
    tasks: (await orch.listTasks()).map((t) => ({
      kind: t.kind,
      label: t.label,
      running: t.running,
      how: t.how,
      pids: t.pids,
      turnId: t.turnId,
    })),
    tools: Object.values(s.toolCalls).map((t) => ({
      id: t.toolCallId,
      title: t.title,
      status: t.status,
      localStatus: t.localStatus,
      detached: !!t.detached,
    })),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
};
let turns = 0;
try {
  await orch.start();
  for (const step of plan) {
    if (step.send !== undefined) {
      orch.sendNow(step.send);
      turns++;
    } else if (step.until === "answered") {
      const n = turns - 1;
      await until((s) => s.phase === "failed" || s.turns.filter((t) => t.origin === "user")[n]?.stopReason !== undefined);
    } else if (step.until === "idle") await until((s) => s.phase === "idle" || s.phase === "failed");
    else if (step.until === "failed") await until((s) => s.phase === "failed");
    else if (step.until === "task-running") {
      for (let i = 0; i < 600 && !(await orch.listTasks()).some((t) => t.running && t.pids?.length); i++)
        await new Promise((r) => setTimeout(r, 100));
    } else if (step.until === "no-running-task") {
      for (let i = 0; i < 600 && (await orch.listTasks()).some((t) => t.running); i++) await new Promise((r) => setTimeout(r, 100));
    } else if (step.ms !== undefined) await new Promise((r) => setTimeout(r, step.ms));
    else if (step.snapshot) await snapshot(step.snapshot);
    else if (step.kill) process.kill(orch.link.proc.pid, "SIGKILL");
    else if (step.shutdown) await orch.shutdown();
  }
} catch (err) {
  process.stdout.write(`${JSON.stringify({ error: String(err?.stack ?? err) })}\n`);
  await snapshot("at error");
}
await orch.shutdown();
process.exit(0);
