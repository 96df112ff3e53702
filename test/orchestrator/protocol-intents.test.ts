// The orchestrator's protocol intents against a scripted agent: what it asks the agent, in which
// order, with what, and what the session shows; each request conch gives up is aborted.
import { describe, expect, it } from "vitest";
import type { RequestControl } from "../../src/acp/agent-connection.js";
import { currentModel } from "../../src/session/config-options.js";
import { FakeAgent, flush, startWithFake } from "./fake-agent.js";

type Conn = Record<string, unknown>;
const conn = (agent: FakeAgent) => agent.conn as unknown as Conn;
const lastNotice = (items: { kind: string; text?: string }[]) => [...items].reverse().find((i) => i.kind === "notice")?.text;

/** A request that waits until the test answers it, remembering the signal it was given. */
function pending<T>() {
  let answer!: (v: T) => void;
  let signal: AbortSignal | undefined;
  const calls: unknown[][] = [];
  const fn = (...args: unknown[]) => {
    calls.push(args);
    signal = (args.at(-1) as RequestControl | undefined)?.signal;
    return new Promise<T>((resolve, reject) => {
      answer = resolve;
      signal?.addEventListener("abort", () => reject(Object.assign(new Error("cancelled"), { code: -32800 })));
    });
  };
  return { fn, calls, answer: (v: T) => answer(v), signal: () => signal };
}

describe("model switches", () => {
  it("go through the model config option when there is one, even when the agent also lists models", async () => {
    const { orch, agent } = await startWithFake({}, undefined, {
      models: {
        currentModelId: "a",
        availableModels: [
          { modelId: "a", name: "A" },
          { modelId: "b", name: "B" },
        ],
      },
      configOptions: [
        {
          type: "select",
          id: "m",
          name: "Model",
          category: "model",
          currentValue: "a",
          options: [
            { value: "a", name: "A" },
            { value: "b", name: "B" },
          ],
        },
      ],
    });
    let setModel = 0;
    conn(agent).setModel = async () => void setModel++;
    // The agent answers with the options, the model option now "b" (its unstable list still says "a").
    conn(agent).setConfigOption = async (_sid: string, configId: string, value: string) => {
      agent.configCalls.push({ configId, value });
      return {
        configOptions: [
          {
            type: "select",
            id: "m",
            name: "Model",
            category: "model",
            currentValue: value,
            options: [
              { value: "a", name: "A" },
              { value: "b", name: "B" },
            ],
          },
        ],
      };
    };
    // The answer comes while the agent's output is being read (a burst): its update waits for the burst's end.
    agent.hooks.onBurst?.("start");
    await orch.setModel("b");
    agent.hooks.onBurst?.("end");
    await flush();
    expect(agent.configCalls).toEqual([{ configId: "m", value: "b" }]);
    expect(setModel).toBe(0);
    // The model in use is the one the answer names, confirmed in one line (the footer reads the same).
    expect(currentModel(orch.state)).toEqual({ id: "b", name: "B" });
    expect(lastNotice(orch.state.items)).toBe("model: B (b)");
  });

  it("fall back to session/set_model when there is no model option", async () => {
    const { orch, agent } = await startWithFake({}, undefined, {
      models: { currentModelId: "a", availableModels: [{ modelId: "b", name: "B" }] },
    });
    const models: string[] = [];
    conn(agent).setModel = async (_sid: string, id: string) => void models.push(id);
    await orch.setModel("b");
    expect(models).toEqual(["b"]);
    expect(agent.configCalls).toEqual([]);
    // set_model answers {} (gemini): the agent took it, so "b" is the model in use now.
    expect(currentModel(orch.state)).toEqual({ id: "b", name: "B" });
    expect(lastNotice(orch.state.items)).toBe("model: B (b)");
  });

  it("a refused switch changes nothing and confirms nothing", async () => {
    const { orch, agent } = await startWithFake({}, undefined, {
      models: { currentModelId: "a", availableModels: [{ modelId: "a", name: "A" }] },
    });
    conn(agent).setModel = async () => {
      throw Object.assign(new Error("Invalid model"), { code: -32602 });
    };
    expect(await orch.setModel("z")).toMatchObject({ kind: "setting-refused" });
    expect(currentModel(orch.state)).toEqual({ id: "a", name: "A" });
    expect(lastNotice(orch.state.items)).toMatch(/^could not switch to model z/);
  });
});

describe("$/cancel_request for conch's own requests", () => {
  it("a settings change still waiting is given up when the user cancels: its signal aborts, and the session says so", async () => {
    const { orch, agent } = await startWithFake();
    const slow = pending<unknown>();
    conn(agent).setConfigOption = slow.fn;
    const setting = orch.setConfigOption("x", "y");
    await flush();
    expect(slow.signal()?.aborted).toBe(false);
    orch.cancel();
    await setting;
    expect(slow.signal()?.aborted).toBe(true);
    expect(lastNotice(orch.state.items)).toBe("could not set x: gave up waiting for the agent");
  });

  it("quitting gives up every request still waiting", async () => {
    const { orch, agent } = await startWithFake();
    const slow = pending<unknown>();
    conn(agent).setMode = slow.fn;
    void orch.setMode("plan");
    await flush();
    await orch.shutdown();
    expect(slow.signal()?.aborted).toBe(true);
  });
});

describe("/clear", () => {
  it("closes the session at an agent that can, then opens a new one; prompts go to the new one", async () => {
    const { orch, agent } = await startWithFake({}, { agentCapabilities: { sessionCapabilities: { close: {} } } });
    const order: string[] = [];
    conn(agent).closeSession = async (sid: string) => void order.push(`close ${sid}`);
    conn(agent).newSession = async () => {
      order.push("new");
      return { sessionId: "s2" };
    };
    await orch.newConversation();
    expect(order).toEqual(["close s1", "new"]);
    expect(orch.state.info?.sessionId).toBe("s2");
    expect(orch.state.phase).toBe("idle");
    expect(lastNotice(orch.state.items)).toBe("new session s2 (the agent closed s1)");
  });

  it("does not send session/close to an agent that does not advertise it", async () => {
    const { orch, agent } = await startWithFake();
    const order: string[] = [];
    conn(agent).closeSession = async () => void order.push("close");
    conn(agent).newSession = async () => {
      order.push("new");
      return { sessionId: "s2" };
    };
    await orch.newConversation();
    expect(order).toEqual(["new"]);
  });

  it("is refused while a turn runs", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("work");
    await orch.newConversation();
    expect(orch.state.info?.sessionId).toBe("s1");
    expect(lastNotice(orch.state.items)).toContain("the agent is busy");
    agent.respond(0);
  });
});

describe("/fork", () => {
  it("is refused, with a reason, by an agent that does not advertise session/fork", async () => {
    const { orch } = await startWithFake();
    await orch.fork();
    expect(lastNotice(orch.state.items)).toBe("fake cannot fork sessions");
  });

  it("goes back to the session it was in when the fork fails", async () => {
    const { orch, agent } = await startWithFake({}, { agentCapabilities: { sessionCapabilities: { fork: {} } as never } });
    conn(agent).forkSession = async () => {
      throw new Error("no room");
    };
    await orch.fork();
    expect(orch.state.info?.sessionId).toBe("s1");
    expect(orch.state.phase).toBe("idle");
    expect(lastNotice(orch.state.items)).toBe("could not fork the session: no room");
  });
});

describe("/logout", () => {
  it("says how to go on when the agent offers no login method", async () => {
    const { orch, agent } = await startWithFake({}, { agentCapabilities: { auth: { logout: {} } }, authMethods: [] });
    conn(agent).logout = async () => ({});
    await orch.logout();
    expect(orch.state.phase).toBe("idle");
    expect(lastNotice(orch.state.items)).toContain("log in outside conch, then /restart");
  });

  it("is refused by an agent that does not advertise it", async () => {
    const { orch } = await startWithFake();
    await orch.logout();
    expect(lastNotice(orch.state.items)).toBe("fake does not offer a logout");
  });
});

describe("additionalDirectories", () => {
  it("are passed to an agent that takes them, and open to fs/*", async () => {
    const opened: unknown[] = [];
    const agent = new FakeAgent();
    agent.init = { protocolVersion: 1, agentCapabilities: { sessionCapabilities: { additionalDirectories: {} } } };
    conn(agent).newSession = async (...args: unknown[]) => {
      opened.push(args[1]);
      return { sessionId: "s1" };
    };
    const { orch } = await startWithFake({ additionalDirectories: ["/extra"], connect: async (hooks) => ((agent.hooks = hooks), agent) });
    expect(opened).toEqual([{ mcpServers: [], additionalDirectories: ["/extra"] }]);
    expect(agent.hooks.additionalRoots?.()).toEqual(["/extra"]);
    expect(orch.state.items.some((i) => i.kind === "notice")).toBe(false);
  });

  it("are not passed to an agent that does not take them, with a warning, and fs/* stays in the cwd", async () => {
    const { orch, agent } = await startWithFake({ additionalDirectories: ["/extra"] });
    expect(agent.hooks.additionalRoots?.()).toEqual([]);
    expect(lastNotice(orch.state.items)).toBe("fake does not take additional directories, so these were not passed: /extra");
  });
});

describe("an agent whose connection is lost", () => {
  it("fails with the reason, not an exit code", async () => {
    const { orch, agent } = await startWithFake();
    agent.die(null, "", "the connection to ws://h:1/ was lost");
    await flush();
    expect(orch.state.phase).toBe("failed");
    expect(orch.state.failure?.message).toBe("the connection to ws://h:1/ was lost");
  });
});
