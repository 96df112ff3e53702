import { describe, expect } from "vitest";
import { runScenario, SAFETY_TIMEOUT_S, type AgentName, type ScenarioOptions, type ScenarioRun, type Step } from "./real-agents.js";

/** One way to run every scenario: how fast the fake model answers. */
export interface RunMode {
  /** Names the `describe` block of the scenarios run this way. */
  name: string;
  /** `FAKE_MODEL_LATENCY_MS`: the fake model waits this long before every reply. */
  latencyMs: number;
  /** `--timeout` of a conch run that sets none: a ceiling for a turn that never ends, not a speed check. */
  safetyTimeoutS: number;
}

/**
 * Every scenario runs twice: with the scripts' own timing (the fake model answers at once), and with
 * a model that takes 3 s before every reply, as real models do. Instant replies hide every race
 * between conch's timers and the agent (issue 11); the expectations are the same both ways.
 */
export const RUN_MODES: readonly RunMode[] = [
  { name: "instant", latencyMs: 0, safetyTimeoutS: SAFETY_TIMEOUT_S },
  { name: "latency 3000 ms", latencyMs: 3000, safetyTimeoutS: 2 * SAFETY_TIMEOUT_S },
];

/**
 * How long a whole with-agent run may take: every step's own ceiling (a conch run's `--timeout`
 * plus the agent's start and stop; a shell step's wait, at most the next UTC minute), so that a
 * stuck step is reported by its own timeout rather than the run's.
 */
function runCeilingMs(steps: Step[], mode: RunMode): number {
  const stepS = steps.map((s) => (s.kind === "conch" ? (s.timeout ?? mode.safetyTimeoutS) + 20 : 65));
  return (60 + stepS.reduce((a, b) => a + b, 0)) * 1000;
}

/** One `describe` per run mode, named after it, holding the same scenarios. */
export function describeModes(body: (mode: RunMode) => void): void {
  for (const mode of RUN_MODES) describe(mode.name, () => body(mode));
}

const started = new Map<string, Promise<ScenarioRun>[]>();
const runKey = (agent: AgentName, mode: RunMode) => `${agent} / ${mode.name}`;

/**
 * A scenario that runs once in this mode, the first time a test asks for it (or when `start()` is
 * called), and is shared by every test that checks one of its prompts.
 */
export function lazyScenario(agent: AgentName, mode: RunMode, script: string, steps: Step[], opts: Pick<ScenarioOptions, "files"> = {}) {
  let running: Promise<ScenarioRun> | undefined;
  const get = () => {
    if (!running) {
      running = runScenario(agent, script, steps, {
        ...opts,
        timeoutMs: runCeilingMs(steps, mode),
        latencyMs: mode.latencyMs,
        safetyTimeoutS: mode.safetyTimeoutS,
      });
      const key = runKey(agent, mode);
      started.set(key, [...(started.get(key) ?? []), running]);
    }
    return running;
  };
  return Object.assign(get, { start: () => void get() });
}

/** Stack-trace lines: an uncaught exception in conch. */
const STACK = /^\s+at .+[:(]\d+:\d+\)?$/m;

/**
 * Every conch run of this agent's scenarios that ran in this mode: none may end in an uncaught
 * exception (a stack trace on stderr), whatever its exit code.
 */
export async function expectNoCrashes(agent: AgentName, mode: RunMode): Promise<void> {
  const runs = await Promise.all(started.get(runKey(agent, mode)) ?? []);
  const crashed: string[] = [];
  for (const run of runs) {
    for (const step of Object.values(run.steps)) {
      if (STACK.test(step.stderr)) crashed.push(`${run.script} ${step.name} (exit ${step.code}):\n${step.stderr.slice(0, 1200)}`);
    }
  }
  expect(crashed, crashed.join("\n\n")).toEqual([]);
}
