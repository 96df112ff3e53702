import { expect } from "vitest";
import { runScenario, type AgentName, type ScenarioRun, type Step } from "./real-agents.js";

const started = new Map<AgentName, Promise<ScenarioRun>[]>();

/**
 * A scenario that runs once, the first time a test asks for it (or when `start()` is called), and
 * is shared by every test that checks one of its prompts.
 */
export function lazyScenario(agent: AgentName, script: string, steps: Step[], opts: { files?: string[]; timeoutMs?: number } = {}) {
  let running: Promise<ScenarioRun> | undefined;
  const get = () => {
    if (!running) {
      running = runScenario(agent, script, steps, opts);
      started.set(agent, [...(started.get(agent) ?? []), running]);
    }
    return running;
  };
  return Object.assign(get, { start: () => void get() });
}

/** Stack-trace lines: an uncaught exception in conch. */
const STACK = /^\s+at .+[:(]\d+:\d+\)?$/m;

/**
 * Every conch run of this agent's scenarios that ran in this file: none may end in an uncaught
 * exception (a stack trace on stderr), whatever its exit code.
 */
export async function expectNoCrashes(agent: AgentName): Promise<void> {
  const runs = await Promise.all(started.get(agent) ?? []);
  const crashed: string[] = [];
  for (const run of runs) {
    for (const step of Object.values(run.steps)) {
      if (STACK.test(step.stderr)) crashed.push(`${run.script} ${step.name} (exit ${step.code}):\n${step.stderr.slice(0, 1200)}`);
    }
  }
  expect(crashed, crashed.join("\n\n")).toEqual([]);
}
