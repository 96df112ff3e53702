import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { displayStatus } from "../../src/session/state.js";
import { flush, startWithFake } from "./fake-agent.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const userTexts = (items: { kind: string; text?: string }[]) => items.filter((i) => i.kind === "user").map((i) => i.text);

describe("the turn orchestrator", () => {
  it("keeps a turn open after end_turn while a background command runs, and settles after it ends", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("start it");
    agent.update({
      sessionUpdate: "tool_call",
      toolCallId: "bg",
      title: "sleep 3; echo done",
      kind: "execute",
      status: "in_progress",
      _meta: { terminal_info: { terminal_id: "bg" } },
    });
    agent.respond(0);
    await flush();
    expect(orch.state.phase).toBe("draining");
    await vi.advanceTimersByTimeAsync(1000);
    expect(orch.state.phase).toBe("draining");
    agent.update({
      sessionUpdate: "tool_call_update",
      toolCallId: "bg",
      status: "completed",
      _meta: { terminal_exit: { terminal_id: "bg", exit_code: 0, signal: null } },
    });
    agent.text("The job finished.");
    await vi.advanceTimersByTimeAsync(20);
    expect(orch.state.phase).toBe("draining");
    await vi.advanceTimersByTimeAsync(100);
    expect(orch.state.phase).toBe("idle");
    // The follow-up text is a turn the agent started, not part of the next prompt.
    const follow = orch.state.items.find((i) => i.kind === "agent");
    expect(orch.state.turns.find((t) => t.id === follow!.turnId)!.origin).toBe("agent");
  });

  it("queues what the user sends while busy and sends it exactly once, in order, when idle", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("first");
    orch.send("second");
    orch.send("third");
    expect(orch.state.queue.map((q) => q.text)).toEqual(["second", "third"]);
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts.map((p) => p.text)).toEqual(["first", "second"]);
    agent.respond(1);
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    agent.respond(2);
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts.map((p) => p.text)).toEqual(["first", "second", "third"]);
    expect(orch.state.queue).toEqual([]);
    expect(userTexts(orch.state.items)).toEqual(["first", "second", "third"]);
  });

  it("lets queued messages be edited and removed before they are sent", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("first");
    orch.send("typo");
    orch.send("drop me");
    const [a, b] = orch.state.queue;
    orch.editQueued(a.id, "fixed");
    orch.removeQueued(b.id);
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts.map((p) => p.text)).toEqual(["first", "fixed"]);
  });

  it("answers two pending permissions independently, in reverse order", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    const p1 = agent.ask(0, "a");
    const p2 = agent.ask(1, "b");
    expect(orch.state.permissions.map((p) => p.key)).toEqual(["agent:0", "agent:1"]);
    orch.answerPermission("agent:1", "no");
    expect(await p2.answer).toEqual({ outcome: { outcome: "selected", optionId: "no" } });
    expect(orch.state.permissions.map((p) => p.key)).toEqual(["agent:0"]);
    // Streaming goes on while one is still pending.
    agent.text("still streaming");
    expect(orch.state.items.some((i) => i.kind === "agent")).toBe(true);
    orch.answerPermission("agent:0", "yes");
    expect(await p1.answer).toEqual({ outcome: { outcome: "selected", optionId: "yes" } });
    expect(displayStatus(orch.state.toolCalls.b)).toBe("rejected");
    expect(displayStatus(orch.state.toolCalls.a)).toBe("pending");
  });

  it("cancel answers every pending permission cancelled and marks open tool calls cancelled", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    const p1 = agent.ask(0, "a");
    const p2 = agent.ask(1, "b");
    orch.cancel();
    expect(agent.cancels).toBe(1);
    expect(orch.state.phase).toBe("cancelling");
    expect(await p1.answer).toEqual({ outcome: { outcome: "cancelled" } });
    expect(await p2.answer).toEqual({ outcome: { outcome: "cancelled" } });
    agent.text("late but accepted");
    agent.respond(0, "cancelled");
    await flush();
    expect(orch.state.phase).toBe("idle");
    expect(displayStatus(orch.state.toolCalls.a)).toBe("cancelled");
  });

  it("an agent's $/cancel_request withdraws its permission request", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    const p = agent.ask(7, "a");
    p.signal.abort();
    expect(await p.answer).toEqual({ outcome: { outcome: "cancelled" } });
    expect(orch.state.permissions).toEqual([]);
  });

  it("remembers allow-always per tool kind for the session", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    const p1 = agent.ask(0, "a", "edit");
    orch.answerPermission("agent:0", "always");
    await p1.answer;
    const p2 = agent.ask(1, "b", "edit");
    expect(await p2.answer).toEqual({ outcome: { outcome: "selected", optionId: "always" } });
    expect(orch.state.permissions).toEqual([]);
    const p3 = agent.ask(2, "c", "execute");
    expect(orch.state.permissions.map((p) => p.key)).toEqual(["agent:2"]);
    orch.answerPermission("agent:2", "no");
    await p3.answer;
  });

  it("an agent exit while draining fails the session, keeping the transcript and the queue", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    agent.update({ sessionUpdate: "tool_call", toolCallId: "bg", title: "sleep", status: "in_progress" });
    agent.text("working");
    agent.respond(0);
    await flush();
    orch.send("queued while draining");
    agent.die(1, "fatal: out of cheese");
    await flush();
    expect(orch.state.phase).toBe("failed");
    expect(orch.state.failure?.stderrTail).toContain("out of cheese");
    expect(orch.state.queue.map((q) => q.text)).toEqual(["queued while draining"]);
    expect(orch.state.items.some((i) => i.kind === "agent")).toBe(true);
  });

  it("reports a tool call silent for the stall timeout as stalled instead of waiting forever", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 50, stallMs: 500 } });
    orch.send("go");
    agent.update({ sessionUpdate: "tool_call", toolCallId: "x", title: "poll", status: "in_progress" });
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(400);
    expect(orch.state.phase).toBe("draining");
    await vi.advanceTimersByTimeAsync(300);
    expect(displayStatus(orch.state.toolCalls.x)).toBe("stalled");
    expect(orch.state.phase).toBe("idle");
  });

  it("detaching sends the next message while the previous turn still drains", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    agent.update({ sessionUpdate: "tool_call", toolCallId: "bg", title: "sleep", status: "in_progress" });
    agent.respond(0);
    await flush();
    orch.sendNow("next");
    expect(agent.prompts.map((p) => p.text)).toEqual(["go", "next"]);
    // A late update for the first turn's call still belongs to the first turn.
    agent.update({ sessionUpdate: "tool_call_update", toolCallId: "bg", status: "completed" });
    expect(orch.state.toolCalls.bg.turnId).toBe("t1");
  });

  it("ignores a duplicate prompt response", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    agent.respond(0);
    agent.respond(0);
    await flush();
    expect(orch.state.turns.filter((t) => t.origin === "user")).toHaveLength(1);
  });

  it("a question from the agent waits for the person, and cancel answers it cancelled", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    const q1 = agent.question(3);
    expect(orch.state.questions.map((q) => q.key)).toEqual(["agent:3"]);
    orch.answerQuestion("agent:3", { action: "accept", content: { name: "conch" } });
    expect(await q1).toEqual({ action: "accept", content: { name: "conch" } });
    const q2 = agent.question(4);
    orch.cancel();
    expect(await q2).toEqual({ action: "cancel" });
    expect(orch.state.questions).toEqual([]);
  });

  it("without a person to ask (print mode), questions are declined at once", async () => {
    const { orch, agent } = await startWithFake({ policy: "deny" });
    orch.send("go");
    expect(await agent.question(1)).toEqual({ action: "decline" });
  });

  it("a queued message keeps its attachments", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("first");
    const blocks = [
      { type: "text" as const, text: "look @a.png" },
      { type: "resource_link" as const, uri: "file:///tmp/a.png", name: "a.png" },
    ];
    orch.send("look @a.png", blocks);
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts[1].text).toBe("look @a.png");
    expect(orch.state.items.filter((i) => i.kind === "user").at(-1)).toMatchObject({ blocks });
  });

  it("sending now while draining goes after what is already queued, each exactly once", async () => {
    const { orch, agent } = await startWithFake();
    orch.send("go");
    agent.update({ sessionUpdate: "tool_call", toolCallId: "bg", title: "sleep", status: "in_progress" });
    agent.respond(0);
    await flush();
    orch.send("queued first");
    orch.sendNow("typed now");
    expect(agent.prompts.map((p) => p.text)).toEqual(["go", "queued first"]);
    agent.respond(1);
    agent.update({ sessionUpdate: "tool_call_update", toolCallId: "bg", status: "completed" });
    await flush();
    await vi.advanceTimersByTimeAsync(100);
    expect(agent.prompts.map((p) => p.text)).toEqual(["go", "queued first", "typed now"]);
  });

  it("a finished call whose display terminal never reports an exit stops holding the turn after the stall timeout", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 50, stallMs: 500 } });
    orch.send("go");
    agent.update({
      sessionUpdate: "tool_call",
      toolCallId: "bg",
      title: "sleep 99",
      status: "completed",
      _meta: { terminal_info: { terminal_id: "bg" } },
    });
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(300);
    expect(orch.state.phase).toBe("draining");
    await vi.advanceTimersByTimeAsync(400);
    expect(orch.state.phase).toBe("idle");
    expect(displayStatus(orch.state.toolCalls.bg)).toBe("completed");
  });
});
