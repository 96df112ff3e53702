// Drives a real Orchestrator (dist/) with a scripted in-process agent port, the way
// test/orchestrator/fake-agent.ts does: the bench decides what streams and when prompts answer.
import { Orchestrator } from "../../dist/orchestrator/orchestrator.js";

export class ScriptedAgent {
  constructor(sessionId = "s1") {
    this.sessionId = sessionId;
    this.init = { protocolVersion: 1, agentCapabilities: { loadSession: true } };
    this.exited = new Promise(() => {});
    this.answer = undefined;
    this.conn = {
      newSession: async () => ({ sessionId: this.sessionId }),
      loadSession: async () => ({}),
      resumeSession: async () => ({}),
      prompt: () => new Promise((resolve) => (this.answer = resolve)),
      cancel: async () => {},
      setMode: async () => ({}),
      setConfigOption: async () => ({ configOptions: [] }),
      setModel: async () => ({}),
      authenticate: async () => ({}),
    };
  }
  update(update) {
    this.hooks.onUpdate({ sessionId: this.sessionId, update });
  }
  async stop() {}
  killNow() {}
}

/** An orchestrator on a scripted agent; quietMs 0, so a turn settles as soon as it is answered. */
export async function startOrchestrator({ sessionId = "s1", sink, cwd = "/tmp", agentName = "demo", agentCommand } = {}) {
  const agent = new ScriptedAgent(sessionId);
  const orch = new Orchestrator({
    agent: { name: agentName, command: agentCommand ?? { command: "scripted", args: [] }, via: "command" },
    cwd,
    policy: "ask",
    timing: { quietMs: 0, stallMs: 10 * 60_000 },
    sink,
    connect: async (hooks) => {
      agent.hooks = hooks;
      return agent;
    },
  });
  await orch.start();
  return { orch, agent };
}

/** Plays turns: each prompt is sent, its updates stream, the prompt answers `end_turn`, the turn settles. */
export async function playTurns(orch, agent, turns, onTurn) {
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    orch.send(t.prompt);
    for (const u of t.updates) agent.update(u);
    agent.answer({ stopReason: "end_turn" });
    await orch.waitFor(["idle"]);
    // Let the prompt's promise chain settle before the next turn.
    await new Promise((r) => setImmediate(r));
    onTurn?.(i);
  }
}
