import { describe, expect, it } from "vitest";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import { FakeAgent, flush, startWithFake } from "./fake-agent.js";

/** Records the order of the cancel, the answers (as logged, when they are given) and the stop. */
function watch(agent: FakeAgent, orch?: Orchestrator): string[] {
  const seen: string[] = [];
  orch?.subscribe((_s, ev) => {
    if (ev?.type === "permission_answered") seen.push(`permission ${ev.outcome.outcome}`);
  });
  const cancel = agent.conn.cancel.bind(agent.conn);
  (agent.conn as { cancel: typeof cancel }).cancel = async (sid: string) => {
    seen.push("session/cancel");
    return cancel(sid);
  };
  const stop = agent.stop.bind(agent);
  agent.stop = async () => {
    seen.push("stop");
    return stop();
  };
  return seen;
}

describe("Orchestrator.shutdown: the one way out", () => {
  it("answers a pending permission cancelled, sends session/cancel, and only then stops the agent", async () => {
    const { orch, agent } = await startWithFake();
    const seen = watch(agent, orch);
    orch.send("delete it");
    const asked = agent.ask(1, "rm");
    await flush();
    expect(orch.state.permissions).toHaveLength(1);
    await orch.shutdown();
    expect((await asked.answer).outcome).toEqual({ outcome: "cancelled" });
    expect(seen).toEqual(["permission cancelled", "session/cancel", "stop"]);
    // The answer is in the log, as Esc's would be.
    expect(orch.state.toolCalls.rm.permission).toMatchObject({ outcome: "cancelled", source: "cancel" });
  });

  it("sends no session/cancel when no turn is active", async () => {
    const { orch, agent } = await startWithFake();
    const seen = watch(agent, orch);
    orch.send("hi");
    agent.respond(0);
    await orch.waitFor(["idle"]);
    await orch.shutdown();
    expect(seen).toEqual(["stop"]);
  });

  it("does not cancel a turn that only waits on background work: the agent answered it, a resume shows the work", async () => {
    const { orch, agent } = await startWithFake();
    const seen = watch(agent, orch);
    orch.send("start it");
    agent.update({
      sessionUpdate: "tool_call",
      toolCallId: "bg",
      title: "sleep 60",
      kind: "execute",
      status: "in_progress",
      _meta: { terminal_info: { terminal_id: "bg" } },
    });
    agent.respond(0);
    await flush();
    expect(orch.state.phase).toBe("draining");
    await orch.shutdown();
    expect(seen).toEqual(["stop"]);
  });

  it("declines a pending question from the agent", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("ask me");
    const question = agent.question(1);
    await flush();
    await orch.shutdown();
    expect(await question).toEqual({ action: "cancel" });
  });

  it("called twice (a signal during print mode's own shutdown), stops the agent once", async () => {
    const { orch, agent } = await startWithFake();
    const seen = watch(agent);
    await Promise.all([orch.shutdown(), orch.shutdown()]);
    expect(seen.filter((s) => s === "stop")).toHaveLength(1);
  });

  it("stops an agent still starting: the start fails instead of leaving the agent behind", async () => {
    const agent = new FakeAgent();
    let release!: () => void;
    const orch = new Orchestrator({
      agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
      cwd: "/tmp",
      policy: "ask",
      connect: async (hooks) => {
        agent.hooks = hooks;
        await new Promise<void>((r) => (release = r));
        return agent;
      },
    });
    const seen = watch(agent);
    const started = orch.start();
    await flush();
    const stopped = orch.shutdown();
    release();
    await expect(started).rejects.toThrow(/quitting/);
    await stopped;
    expect(seen).toEqual(["stop"]);
  });
});
