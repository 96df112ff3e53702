import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ClientHooks } from "../../src/acp/agent-connection.js";
import { ConchError } from "../../src/errors/conch-error.js";
import { AgentStartError } from "../../src/orchestrator/agent/agent-link.js";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import type { SessionEvent } from "../../src/session/events.js";
import { FakeAgent, flush, startWithFake } from "./fake-agent.js";

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

describe("an agent that does not start", () => {
  it("is a failed event in the session, with its stderr tail as detail, and /restart starts it again", async () => {
    const agent = new FakeAgent();
    const logged: SessionEvent[] = [];
    let attempts = 0;
    const orch = new Orchestrator({
      agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
      cwd: "/tmp",
      policy: "ask",
      timing: { quietMs: 50, stallMs: 10_000 },
      sink: { append: (ev) => logged.push(ev), sync: () => undefined },
      connect: async (hooks: ClientHooks) => {
        if (++attempts === 1) throw new AgentStartError("agent fake exited with code 1 before it answered initialize", "No API key\n");
        agent.hooks = hooks;
        return agent;
      },
    });
    orch.send("typed while it started");
    const error = await orch.start().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ConchError);
    expect(error).toMatchObject({ kind: "agent-start", exitCode: 1, detail: "No API key\n" });
    // The message is for the person; the tail travels beside it, never inside.
    expect((error as Error).message).toBe("agent fake exited with code 1 before it answered initialize");
    expect(orch.state.phase).toBe("failed");
    expect(orch.state.failure).toEqual({
      kind: "agent-start",
      message: "agent fake exited with code 1 before it answered initialize",
      stderrTail: "No API key\n",
    });
    expect(logged.filter((ev) => ev.type === "failed")).toMatchObject([{ kind: "agent-start", stderrTail: "No API key\n" }]);
    expect(orch.state.queue.map((q) => q.text)).toEqual(["typed while it started"]);

    await orch.restart();
    expect(orch.state.failure).toBeUndefined();
    expect(agent.prompts.map((p) => p.text)).toEqual(["typed while it started"]);
  });

  it("a start given up because conch quits is no failure to show", async () => {
    const orch = new Orchestrator({
      agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
      cwd: "/tmp",
      policy: "ask",
      connect: () =>
        new Promise((_, reject) => setTimeout(() => reject(new AgentStartError("the start of agent fake was abandoned", "")), 10)),
    });
    const started = orch.start().catch((err: unknown) => err);
    const stopped = orch.shutdown();
    await vi.advanceTimersByTimeAsync(20);
    expect(await started).toMatchObject({ kind: "agent-start" });
    await stopped;
    expect(orch.state.phase).toBe("starting");
    expect(orch.state.failure).toBeUndefined();
  });
});

describe("settings the agent refuses", () => {
  it("resolve with a typed refusal (also shown as an error notice); accepted ones with nothing", async () => {
    const { orch, agent } = await startWithFake();
    expect(await orch.setMode("plan")).toBeUndefined();
    (agent.conn as unknown as Record<string, unknown>).setMode = async () => {
      throw Object.assign(new Error("Invalid params"), { code: -32602, data: "no such mode: bogus" });
    };
    const refused = await orch.setMode("bogus");
    expect(refused).toBeInstanceOf(ConchError);
    expect(refused).toMatchObject({ kind: "setting-refused", exitCode: 1 });
    expect(refused!.message).toMatch(/^could not switch to mode bogus: /);
    expect(orch.state.items.at(-1)).toMatchObject({ kind: "notice", level: "error", text: refused!.message });
  });
});
