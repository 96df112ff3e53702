import { describe, expect, it } from "vitest";
import type { SessionEvent, SessionEventInput } from "../../src/session/events.js";
import { foldEvents } from "../../src/session/reduce.js";
import type { SessionState } from "../../src/session/state.js";

/** Folds inputs stamped 1, 2, 3… */
function fold(inputs: SessionEventInput[]): SessionState {
  return foldEvents(inputs.map((e, i) => ({ ...e, at: i + 1 }) as SessionEvent));
}

const opened: SessionEventInput = { type: "session_started", info: { sessionId: "s1", cwd: "/w", agentName: "x", origin: "new" } };
const update = (u: Record<string, unknown>): SessionEventInput => ({
  type: "update",
  notification: { sessionId: "s1", update: u as never },
});
const plans = (s: SessionState) => s.items.flatMap((i) => (i.kind === "plan" ? [i] : []));

describe("plan_update and plan_removed (unstable identified plans)", () => {
  it("an item plan is shown, and a later update of the same plan in the turn replaces it in place", () => {
    const s = fold([
      opened,
      { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      update({
        sessionUpdate: "plan_update",
        plan: { type: "items", planId: "p", entries: [{ content: "a", priority: "high", status: "pending" }] },
      }),
      update({
        sessionUpdate: "plan_update",
        plan: { type: "items", planId: "p", entries: [{ content: "a", priority: "high", status: "completed" }] },
      }),
    ]);
    expect(plans(s)).toHaveLength(1);
    expect(plans(s)[0]).toMatchObject({ planId: "p", entries: [{ content: "a", status: "completed" }] });
    expect(s.plan).toEqual([{ content: "a", priority: "high", status: "completed" }]);
  });

  it("two plans with different ids are two plans", () => {
    const s = fold([
      opened,
      { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      update({ sessionUpdate: "plan_update", plan: { type: "items", planId: "a", entries: [] } }),
      update({ sessionUpdate: "plan_update", plan: { type: "items", planId: "b", entries: [] } }),
    ]);
    expect(plans(s).map((p) => p.planId)).toEqual(["a", "b"]);
  });

  it("a markdown plan's list items become entries, a task box saying their status; a file plan names its file", () => {
    const s = fold([
      opened,
      { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      update({
        sessionUpdate: "plan_update",
        plan: { type: "markdown", planId: "m", content: "# Plan\n\n- [x] one\n- [~] two\n1. three\nprose" },
      }),
      update({ sessionUpdate: "plan_update", plan: { type: "file", planId: "f", uri: "file:///w/PLAN.md" } }),
    ]);
    expect(plans(s)[0].entries).toEqual([
      { content: "one", priority: "medium", status: "completed" },
      { content: "two", priority: "medium", status: "in_progress" },
      { content: "three", priority: "medium", status: "pending" },
    ]);
    expect(plans(s)[1].entries).toEqual([{ content: "the plan is in file:///w/PLAN.md", priority: "medium", status: "pending" }]);
  });

  it("plan_removed says so and drops the current plan", () => {
    const s = fold([
      opened,
      { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      update({
        sessionUpdate: "plan_update",
        plan: { type: "items", planId: "p", entries: [{ content: "a", priority: "low", status: "pending" }] },
      }),
      update({ sessionUpdate: "plan_removed", planId: "p" }),
    ]);
    expect(s.plan).toBeUndefined();
    expect(s.items.at(-1)).toMatchObject({ kind: "notice", text: "the agent removed its plan" });
    expect(s.items.some((i) => i.kind === "unknown")).toBe(false);
  });
});

describe("leaving a session for another (/clear, /fork)", () => {
  it("ends what belonged to the old session, keeps its transcript, and the next session_started opens the new one", () => {
    const s = fold([
      opened,
      { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      update({ sessionUpdate: "session_info_update", title: "old title" }),
      update({ sessionUpdate: "usage_update", used: 10, size: 100 }),
      update({ sessionUpdate: "tool_call", toolCallId: "c1", title: "run", status: "in_progress" }),
      { type: "prompt_response", turnId: "t1", response: { stopReason: "end_turn" } },
      { type: "session_left", sessionId: "s1", closed: true },
    ]);
    expect(s.phase).toBe("starting");
    expect(s.title).toBeUndefined();
    expect(s.usage).toBeUndefined();
    expect(s.toolCalls.c1.localStatus).toBe("cancelled");
    expect(s.items.some((i) => i.kind === "user")).toBe(true);
    const next = foldEvents([{ type: "session_started", at: 99, info: { sessionId: "s2", cwd: "/w", agentName: "x", origin: "new" } }], s);
    expect(next.phase).toBe("idle");
    expect(next.info?.sessionId).toBe("s2");
  });
});

describe("an agent that ends without a process exit", () => {
  it("fails with the reason it was given (a remote agent's lost connection)", () => {
    const s = fold([
      opened,
      { type: "agent_exited", code: null, signal: null, stderrTail: "", expected: false, reason: "the connection to ws://h:1/ was lost" },
    ]);
    expect(s.phase).toBe("failed");
    expect(s.failure?.message).toBe("the connection to ws://h:1/ was lost");
  });
});
