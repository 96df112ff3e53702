import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { foldEvents } from "../../src/session/reduce.js";
import { flush, startWithFake } from "./fake-agent.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const STEERING = { _meta: { steering: { supported: true } } };

describe("steering a message into the running turn", () => {
  it("knows from initialize whether the agent takes steering", async () => {
    expect((await startWithFake({}, STEERING)).orch.state.agent?.steering).toBe(true);
    expect((await startWithFake()).orch.state.agent?.steering).toBeUndefined();
  });

  it("sends _session/steering while a prompt runs, and shows the message inside that turn, after what the agent said so far", async () => {
    const { orch, agent } = await startWithFake({}, STEERING);
    orch.send("write the report");
    agent.text("Working on the report.");
    orch.steer("also add a summary");
    expect(agent.steers.map((s) => s.text)).toEqual(["also add a summary"]);
    expect(agent.prompts).toHaveLength(1);
    expect(orch.state.queue).toEqual([]);
    agent.steers[0].answer.resolve({ outcome: "injected" });
    await flush();
    const turnId = orch.state.pendingPrompts[0];
    const items = orch.state.items.filter((i) => i.kind === "user" || i.kind === "agent");
    expect(items.map((i) => [i.kind, "text" in i ? i.text : "", i.turnId, i.kind === "user" ? i.steered === true : undefined])).toEqual([
      ["user", "write the report", turnId, false],
      ["agent", "Working on the report.", turnId, undefined],
      ["user", "also add a summary", turnId, true],
    ]);
    // What the agent says next follows the steered message, in the same turn.
    agent.text("Adding a summary.");
    const last = orch.state.items[orch.state.items.length - 1];
    expect(last).toMatchObject({ kind: "agent", text: "Adding a summary.", turnId });
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(orch.state.phase).toBe("idle");
    expect(agent.prompts).toHaveLength(1);
  });

  it("sends the message as a prompt when the agent says no turn runs any more (promptRequired)", async () => {
    const { orch, agent } = await startWithFake({}, STEERING);
    orch.send("first");
    orch.steer("second");
    agent.respond(0);
    await flush();
    agent.steers[0].answer.resolve({ outcome: "promptRequired", reason: "noRunningTurn" });
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts.map((p) => p.text)).toEqual(["first", "second"]);
    expect(orch.state.items.filter((i) => i.kind === "user" && i.steered)).toEqual([]);
  });

  it("queues the message, with a notice, when the steering request fails: it is never lost", async () => {
    const { orch, agent } = await startWithFake({}, STEERING);
    orch.send("first");
    orch.steer("second");
    agent.steers[0].answer.reject(new Error("session ended"));
    await flush();
    expect(orch.state.queue.map((q) => q.text)).toEqual(["second"]);
    expect(
      orch.state.items.some((i) => i.kind === "notice" && i.text.includes("could not steer") && i.text.includes("session ended")),
    ).toBe(true);
  });

  it("queues the message like send when the agent does not advertise steering, or nothing runs", async () => {
    const plain = await startWithFake();
    plain.orch.send("first");
    plain.orch.steer("second");
    expect(plain.agent.steers).toEqual([]);
    expect(plain.orch.state.queue.map((q) => q.text)).toEqual(["second"]);

    const { orch, agent } = await startWithFake({}, STEERING);
    orch.steer("hello");
    expect(agent.steers).toEqual([]);
    expect(agent.prompts.map((p) => p.text)).toEqual(["hello"]);
  });

  it("a steered message folds back from the log the same way", async () => {
    const { orch, agent } = await startWithFake({}, STEERING);
    const events: SessionEvent[] = [];
    orch.subscribe((_s, ev) => ev && events.push(ev));
    orch.send("first");
    orch.steer("steer me");
    agent.steers[0].answer.resolve({ outcome: "injected" });
    await flush();
    const again = foldEvents(events);
    expect(again.items.find((i) => i.kind === "user" && i.steered)).toMatchObject({
      text: "steer me",
      turnId: orch.state.pendingPrompts[0],
    });
  });
});
