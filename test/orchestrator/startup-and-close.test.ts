import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientHooks } from "../../src/acp/agent-connection.js";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import { FakeAgent, flush } from "./fake-agent.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** A fake agent whose start the test completes by hand, and that may advertise session/close. */
function slowStartingAgent(opts: { close?: boolean; answersClose?: boolean } = {}) {
  const agent = new FakeAgent();
  const calls: string[] = [];
  if (opts.close) (agent.init.agentCapabilities as Record<string, unknown>).sessionCapabilities = { close: {} };
  const conn = agent.conn as unknown as Record<string, unknown>;
  conn.closeSession = (sid: string) => {
    calls.push(`close ${sid}`);
    return opts.answersClose === false ? new Promise(() => undefined) : Promise.resolve({});
  };
  const stop = agent.stop.bind(agent);
  agent.stop = async () => {
    calls.push("stop");
    await stop();
  };
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => (connected = resolve));
  const orch = new Orchestrator({
    agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
    cwd: "/tmp",
    policy: "ask",
    timing: { quietMs: 50, stallMs: 10_000 },
    connect: async (hooks: ClientHooks) => {
      agent.hooks = hooks;
      await ready;
      return agent;
    },
  });
  return { orch, agent, calls, connect: () => connected() };
}

describe("messages sent while the agent starts", () => {
  it("are queued while starting and go out once each, in order, the moment the session opens", async () => {
    const { orch, agent, connect } = slowStartingAgent();
    const started = orch.start();
    expect(orch.state.phase).toBe("starting");
    orch.send("from the command line");
    orch.send("typed during startup");
    expect(orch.state.queue.map((q) => q.text)).toEqual(["from the command line", "typed during startup"]);
    expect(agent.prompts).toEqual([]);

    connect();
    await started;
    // The first goes out as the session opens, with no timer in between.
    expect(agent.prompts.map((p) => p.text)).toEqual(["from the command line"]);
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts.map((p) => p.text)).toEqual(["from the command line", "typed during startup"]);
    agent.respond(1);
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts).toHaveLength(2);
    expect(orch.state.queue).toEqual([]);
    expect(orch.state.phase).toBe("idle");
  });
});

describe("quitting", () => {
  it("closes the session at an agent that advertises session/close, then stops it", async () => {
    const { orch, calls, connect } = slowStartingAgent({ close: true });
    connect();
    await orch.start();
    await orch.shutdown();
    expect(calls).toEqual(["close s1", "stop"]);
  });

  it("does not send session/close to an agent that does not advertise it", async () => {
    const { orch, calls, connect } = slowStartingAgent();
    connect();
    await orch.start();
    await orch.shutdown();
    expect(calls).toEqual(["stop"]);
  });

  it("stops an agent that never answers session/close after a short wait", async () => {
    const { orch, calls, connect } = slowStartingAgent({ close: true, answersClose: false });
    connect();
    await orch.start();
    let done = false;
    void orch.shutdown().then(() => (done = true));
    await flush();
    expect(calls).toEqual(["close s1"]);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toEqual(["close s1", "stop"]);
    expect(done).toBe(true);
  });
});
