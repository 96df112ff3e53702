import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, reportSkip, runWithAgent, sq, type AgentName } from "./support/real-agents.js";
import { describeModes, type RunMode } from "./support/scenario.js";

/**
 * The tasks view's data under real agents: conch's Orchestrator drives the agent (support/tasks-driver.mjs)
 * and says at each point what the tasks view would list, from the session and the agent's process
 * table. gemini-cli 0.61.0 never uses client terminals (`terminal: false` in every trace): the client
 * terminal's case runs with conch's demo agent (test/integration/tasks-agent-exit.test.ts).
 */
const DRIVER = path.join(ROOT, "test/agents/support/tasks-driver.mjs");

interface Snapshot {
  snapshot?: string;
  error?: string;
  phase: string;
  tasks: { kind: string; label: string; running: boolean; how?: string; pids?: number[]; turnId?: string }[];
  tools: { id: string; title: string; status: string; localStatus?: string; detached: boolean }[];
}

async function drive(agent: AgentName | "codex-next", script: string, mode: RunMode, plan: unknown[]) {
  const r = await runWithAgent(agent as AgentName, script, `node ${sq(DRIVER)} ${sq(JSON.stringify(plan))}`, {
    timeoutMs: 300_000,
    env: mode.latencyMs ? { FAKE_MODEL_LATENCY_MS: String(mode.latencyMs) } : {},
  });
  const lines = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Snapshot);
  const at = (name: string) => {
    const s = lines.find((l) => l.snapshot === name);
    if (!s) throw new Error(`no snapshot "${name}"; the driver printed:\n${r.stdout}\n${r.stderr.slice(-2000)}`);
    return s;
  };
  return { at, lines, describe: () => `${r.stdout}\n${r.stderr.slice(-2000)}` };
}

const running = (s: Snapshot) => s.tasks.filter((t) => t.running);

describe.skipIf(reportSkip("claude-next"))("tasks under claude-next 0.100 (s4: a background task that ends while no turn runs)", () => {
  describeModes((mode) => {
    it("the background command is a running task with its process; it ends (while no turn runs, at instant speed); none left running", async () => {
      const r = await drive("claude-next", "s4-background-bash", mode, [
        { send: "Start the background job" },
        { until: "task-running" },
        { snapshot: "running" },
        { until: "answered" },
        { snapshot: "answered" },
        { until: "no-running-task" },
        { until: "idle" },
        { snapshot: "end" },
      ]);
      const live = running(r.at("running"));
      expect(
        live.map((t) => t.label),
        r.describe(),
      ).toEqual(["sleep 3; echo done"]);
      expect(live[0].pids?.length).toBeGreaterThan(0);
      // At instant speed the turn answers before `sleep 3` is over (a model taking 3 s outlasts it).
      if (mode.latencyMs === 0)
        expect(
          running(r.at("answered")).map((t) => t.label),
          r.describe(),
        ).toEqual(["sleep 3; echo done"]);
      const end = r.at("end");
      expect(running(end), r.describe()).toEqual([]);
      expect(end.tasks.find((t) => t.label === "sleep 3; echo done")?.running).toBe(false);
    });

    it("kill -9 of the agent mid-task: every task it owned is shown ended, none running, its leftover process stopped", async () => {
      const r = await drive("claude-next", "s4-background-bash", mode, [
        { send: "Start the background job" },
        { until: "task-running" },
        { snapshot: "running" },
        { kill: true },
        { until: "failed" },
        { ms: 1500 },
        { snapshot: "killed" },
      ]);
      expect(running(r.at("running")).length, r.describe()).toBe(1);
      const killed = r.at("killed");
      expect(running(killed), r.describe()).toEqual([]);
      expect(killed.tasks.map((t) => t.how)).toEqual(["ended with the agent"]);
    });
  });
});

describe.skipIf(reportSkip("codex"))("tasks under codex-acp 0.16 (c4: the exec its end may be lost for)", () => {
  describeModes((mode) => {
    it("after the turn, the command is completed (or ended, when codex lost its end): never left running", async () => {
      const r = await drive("codex", "c4", mode, [
        { send: "Run the slow command and wait for it." },
        { until: "idle" },
        { snapshot: "idle" },
      ]);
      const s = r.at("idle");
      expect(
        s.tools.map((t) => t.status === "completed" || t.localStatus === "ended"),
        r.describe(),
      ).toEqual([true]);
      expect(s.tools[0].detached).toBe(false);
      expect(running(s), r.describe()).toEqual([]);
    });
  });
});

describe.skipIf(reportSkip("codex-next" as AgentName))(
  "tasks under codex-acp 2.6 (c5-unfinished: a command that outlives its turn)",
  () => {
    describeModes((mode) => {
      it("the command is a running task with its processes after the turn answered, until it ends; then none is left running", async () => {
        const r = await drive("codex-next", "c5-unfinished", mode, [
          { send: "Run the slow command." },
          { until: "answered" },
          { snapshot: "answered" },
          { until: "no-running-task" },
          { snapshot: "end" },
        ]);
        const answered = r.at("answered");
        expect(
          running(answered).map((t) => t.label),
          r.describe(),
        ).toEqual(["sleep 1; echo tick; sleep 6; echo done"]);
        expect(running(answered)[0].pids?.length).toBeGreaterThan(0);
        expect(running(r.at("end")), r.describe()).toEqual([]);
      });
    });
  },
);
