import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { detachWithQueued } from "../../src/ui/commands/detach.js";
import { FrameScheduler } from "../../src/ui/hooks/use-session-state.js";
import { ptyBytesFor } from "../../src/ui/tty/pty-keys.js";
import { attentionBytes, attentionStep, INITIAL_ATTENTION } from "../../src/ui/status/attention.js";
import { barSegments, shortPath } from "../../src/ui/status/session-facts.js";
import { flush, startWithFake } from "../orchestrator/fake-agent.js";
import { FakeSession } from "./fake-session.js";
import { inkKey } from "./ink-key.js";

const key = inkKey;

describe("keys typed into a focused terminal", () => {
  it("pass legacy bytes through as they came", () => {
    expect(ptyBytesFor("", key({ upArrow: true }), "\x1b[A")).toBe("\x1b[A");
    expect(ptyBytesFor("c", key({ ctrl: true }), "\x03")).toBe("\x03");
    expect(ptyBytesFor("hello", key(), "hello")).toBe("hello");
  });

  it("translate kitty-protocol reports back into the bytes programs expect", () => {
    expect(ptyBytesFor("", key({ return: true }), "\x1b[13u")).toBe("\r");
    expect(ptyBytesFor("c", key({ ctrl: true }), "\x1b[99;5u")).toBe("\x03");
    expect(ptyBytesFor("", key({ escape: true }), "\x1b[27u")).toBe("\x1b");
    expect(ptyBytesFor("", key({ leftArrow: true }), "\x1b[1;1:1D")).toBe("\x1b[D");
    expect(ptyBytesFor("x", key({ meta: true }), "\x1b[120;3u")).toBe("\x1bx");
  });
});

describe("attention", () => {
  it("rings when a turn that took more than 5 s ends, not for a short one", () => {
    const s = new FakeSession().open();
    let m = attentionStep(INITIAL_ATTENTION, s.state, 0).memory;
    const t = s.prompt("go");
    m = attentionStep(m, s.state, 1_000).memory;
    s.respond(t);
    s.emit({ type: "settled" });
    expect(attentionStep(m, s.state, 3_000).message).toBeUndefined();
    const t2 = s.prompt("again");
    m = attentionStep(m, s.state, 10_000).memory;
    s.respond(t2);
    s.emit({ type: "settled" });
    expect(attentionStep(m, s.state, 16_000).message).toBe("the agent finished");
  });

  it("rings once for a permission that waits in a long turn", () => {
    const s = new FakeSession().open();
    s.prompt("go");
    let step = attentionStep(INITIAL_ATTENTION, s.state, 0);
    s.askPermission("k1", "c1", "rm -rf build/");
    step = attentionStep(step.memory, s.state, 6_000);
    expect(step.message).toBe("permission needed: rm -rf build/");
    expect(attentionStep(step.memory, s.state, 7_000).message).toBeUndefined();
  });

  it("writes a bell and an OSC 9 notification without control characters from the message", () => {
    expect(attentionBytes("done\x1b]evil")).toBe("\x07\x1b]9;conch: done ]evil\x07");
  });
});

describe("the frame scheduler", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("renders the first update at once and coalesces the rest of the frame into one, never dropping the last", () => {
    let now = 0;
    let flushes = 0;
    const scheduler = new FrameScheduler(
      () => flushes++,
      33,
      () => now,
    );
    scheduler.request();
    expect(flushes).toBe(1);
    for (let i = 0; i < 100; i++) scheduler.request();
    expect(flushes).toBe(1);
    now = 33;
    vi.advanceTimersByTime(33);
    expect(flushes).toBe(2);
    vi.advanceTimersByTime(100);
    expect(flushes).toBe(2);
  });
});

describe("status bar facts", () => {
  it("names agent, mode, model, context and cost, and shortens the cwd", () => {
    const s = new FakeSession().open({
      cwd: "/home/ada/project",
      configOptions: [{ type: "select", id: "model", name: "Model", currentValue: "fast", options: [{ value: "fast", name: "Fast One" }] }],
    });
    s.update({ sessionUpdate: "usage_update", used: 42_000, size: 200_000, cost: { amount: 0.123, currency: "USD" } });
    expect(barSegments(s.state, "fake", "/home/ada/project").map((b) => b.text)).toEqual([
      "Fake Agent",
      "Code",
      "Fast One",
      "ctx 21%",
      "$0.12",
      "/home/ada/project",
    ]);
    expect(shortPath("/home/ada/project", "/home/ada")).toBe("~/project");
  });

  it("names the agent as it named itself in initialize, before its session is open (a long load), not by its command line", () => {
    const s = new FakeSession();
    s.emit({ type: "agent_ready", info: { name: "claude-agent-acp", title: "Claude Agent", version: "0.23.1" } });
    expect(barSegments(s.state, "/usr/bin/node /x/claude-agent-acp/dist/index.js", "/p")[0].text).toBe("Claude Agent");
  });
});

describe("detaching from a draining turn", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] }));
  afterEach(() => vi.useRealTimers());

  it("sends the first queued message now and keeps the rest queued in order, nothing twice", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("start");
    agent.update({ sessionUpdate: "tool_call", toolCallId: "bg", title: "sleep 60", kind: "execute", status: "in_progress" });
    agent.respond(0);
    await flush();
    orch.send("first");
    orch.send("second");
    expect(orch.state.phase).toBe("draining");
    expect(detachWithQueued(orch)).toBe(true);
    await flush();
    expect(agent.prompts.map((p) => p.text)).toEqual(["start", "first"]);
    expect(orch.state.queue.map((q) => q.text)).toEqual(["second"]);
    agent.respond(1);
    // The background command still keeps turns open; once it ends, the queue moves on.
    agent.update({ sessionUpdate: "tool_call_update", toolCallId: "bg", status: "completed" });
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts.map((p) => p.text)).toEqual(["start", "first", "second"]);
  });
});
