import { describe, expect, it } from "vitest";
import type { ClientHooks } from "../../src/acp/agent-connection.js";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import type { ResumedLog } from "../../src/orchestrator/orchestrator-options.js";
import type { SessionEvent } from "../../src/session/events.js";
import { FakeAgent, flush } from "./fake-agent.js";

/** A log conch wrote earlier: one turn, a prompt and its answer. */
const LOGGED: SessionEvent[] = [
  { type: "prompt_sent", at: 1, turnId: "t1", prompt: [{ type: "text", text: "first" }] },
  {
    type: "update",
    at: 2,
    notification: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "one" } } },
  },
];

/** An agent that replays the moment `session/load` arrives, and a log that is in only when the test says. */
function resumeWithEagerReplay(more = 0) {
  const agent = new FakeAgent();
  let loadedAt = -1;
  let logRead!: (log: ResumedLog) => void;
  let logFailed!: (err: Error) => void;
  const history = new Promise<ResumedLog>((resolve, reject) => {
    logRead = resolve;
    logFailed = reject;
  });
  let historyAsked = false;
  const logged: SessionEvent[] = [];
  let answer!: () => void;
  (agent.conn as unknown as { loadSession: () => Promise<unknown> }).loadSession = () => {
    loadedAt = logged.length;
    agent.hooks.onBurst?.("start");
    agent.update({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "first" } });
    agent.text("one");
    for (let i = 0; i < more; i++) agent.text(` ${i}`);
    agent.hooks.onExtNotification?.("_conch/unknown_signal", {});
    agent.hooks.onBurst?.("end");
    return new Promise((resolve) => (answer = () => resolve({})));
  };
  const orch = new Orchestrator({
    agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
    cwd: "/tmp",
    policy: "ask",
    sink: { append: (ev) => logged.push(ev), sync: () => undefined },
    loadHistory: () => {
      historyAsked = true;
      return history;
    },
    connect: async (hooks: ClientHooks) => {
      agent.hooks = hooks;
      return agent;
    },
  });
  return { orch, agent, logged, logRead, logFailed, answer: () => answer(), loadedAt: () => loadedAt, historyAsked: () => historyAsked };
}

describe("session/load sent while conch's own log is still read", () => {
  it("goes out before the log is in; the replay is held back, reads wait, and it follows replay_started in the wire's order", async () => {
    const r = resumeWithEagerReplay();
    const opening = r.orch.start({ kind: "load", sessionId: "s1" });
    await flush();
    expect(r.historyAsked()).toBe(true);
    expect(r.loadedAt()).toBeGreaterThanOrEqual(0);
    // The replay came, but nothing of it is handled yet, and reading the agent waits.
    expect(r.logged.filter((ev) => ev.type === "update")).toHaveLength(0);
    expect(r.orch.state.items).toHaveLength(0);
    // A short replay is read whole (with the answer, handled in one batch as before).
    expect(r.agent.hooks.holdReads?.()).toBeUndefined();

    r.logRead({ events: LOGGED });
    await flush();
    expect(r.agent.hooks.holdReads?.()).toBeUndefined();
    r.answer();
    await opening;
    const types = r.logged.map((ev) => ev.type);
    const started = types.indexOf("replay_started");
    expect(started).toBeGreaterThanOrEqual(0);
    const updates = r.logged.filter((ev) => ev.type === "update");
    expect(updates.map((ev) => (ev as { notification: { update: { sessionUpdate: string } } }).notification.update.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
    ]);
    for (const ev of updates) expect((ev as { history?: boolean }).history).toBe(true);
    expect(types.indexOf("update")).toBeGreaterThan(started);
    expect(types.indexOf("replay_ended")).toBeGreaterThan(types.lastIndexOf("update"));
    const shown = r.orch.state.items.filter((i) => i.kind === "user" || i.kind === "agent");
    expect(shown.map((i) => [i.kind, "text" in i ? i.text : undefined])).toEqual([
      ["user", "first"],
      ["agent", "one"],
    ]);
    // Once over, updates go straight through.
    r.agent.text(" more");
    await flush();
    expect(r.orch.state.items.at(-1)).toMatchObject({ kind: "agent", text: " more" });
    await r.orch.shutdown();
  });

  it("a long replay waits in the agent's pipe: reading is held until the log is in", async () => {
    const r = resumeWithEagerReplay(300);
    const opening = r.orch.start({ kind: "load", sessionId: "s1" });
    await flush();
    const held = r.agent.hooks.holdReads?.();
    expect(held).toBeInstanceOf(Promise);
    let resumed = false;
    void held?.then(() => (resumed = true));
    await flush();
    expect(resumed).toBe(false);
    r.logRead({ events: LOGGED });
    await flush();
    expect(resumed).toBe(true);
    r.answer();
    await opening;
    const texts = r.orch.state.items.filter((i) => i.kind === "agent").map((i) => ("text" in i ? i.text : ""));
    expect(texts).toEqual([`one${Array.from({ length: 300 }, (_, i) => ` ${i}`).join("")}`]);
    await r.orch.shutdown();
  });

  it("a log that cannot be read fails the open, and the replay that came meanwhile is dropped", async () => {
    const r = resumeWithEagerReplay();
    const opening = r.orch.start({ kind: "load", sessionId: "s1" });
    await flush();
    r.logFailed(new Error("unreadable"));
    await expect(opening).rejects.toThrow(/unreadable/);
    expect(r.agent.hooks.holdReads?.()).toBeUndefined();
    r.agent.text("late");
    r.answer();
    await flush();
    expect(r.orch.state.phase).toBe("failed");
    expect(r.orch.state.items.some((i) => "text" in i && i.text === "one")).toBe(false);
    expect(r.logged.some((ev) => ev.type === "update")).toBe(false);
    await r.orch.shutdown();
  });
  it("an agent that refuses the load before the log is in fails the open with its message, and conch does not crash", async () => {
    const r = resumeWithEagerReplay();
    (r.agent.conn as unknown as { loadSession: () => Promise<unknown> }).loadSession = () =>
      Promise.reject(Object.assign(new Error("Resource not found"), { code: -32002 }));
    const opening = r.orch.start({ kind: "load", sessionId: "s1" });
    // The refusal settles while the log is still read: nothing may be left unhandled meanwhile.
    await flush();
    await new Promise((resolve) => setImmediate(resolve));
    r.logRead({ events: LOGGED });
    await expect(opening).rejects.toThrow(/Resource not found/);
    expect(r.orch.state.phase).toBe("failed");
    await r.orch.shutdown();
  });
});
