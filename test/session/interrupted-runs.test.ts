import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { closeInterruptedRuns, INTERRUPTED_TURN } from "../../src/session/interrupted-runs.js";
import { foldEvents } from "../../src/session/reduce.js";

const info = { sessionId: "s1", cwd: "/w", agentName: "a", origin: "new" as const };
const text = (at: number, t: string): SessionEvent => ({
  type: "update",
  at,
  notification: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } } },
});

/** A run killed mid-turn: its prompt never answered, a permission still waiting. */
const killedRun: SessionEvent[] = [
  { type: "session_started", at: 1, info },
  { type: "prompt_sent", at: 2, turnId: "t1", prompt: [{ type: "text", text: "do it" }] },
  text(3, "working on"),
  {
    type: "permission_asked",
    at: 4,
    key: "agent:7",
    request: {
      sessionId: "s1",
      toolCall: { toolCallId: "c1", title: "rm -rf build", status: "pending" },
      options: [{ optionId: "y", name: "Allow", kind: "allow_once" }],
    },
  },
];

describe("a log whose conch was killed mid-turn", () => {
  it("folds to a turn that ended with a clear error, with nothing left waiting, and keeps everything before the kill", () => {
    const raw = foldEvents(killedRun);
    expect(raw.phase).toBe("prompting");
    expect(raw.pendingPrompts).toEqual(["t1"]);
    const s = foldEvents(closeInterruptedRuns(killedRun));
    expect(s.pendingPrompts).toEqual([]);
    expect(s.permissions).toEqual([]);
    expect(s.phase).toBe("draining");
    expect(s.turns.find((t) => t.id === "t1")?.error).toBe(INTERRUPTED_TURN);
    expect(s.items.filter((i) => i.kind === "agent").map((i) => ("text" in i ? i.text : ""))).toEqual(["working on"]);
    expect(s.items.some((i) => i.kind === "notice" && i.text === INTERRUPTED_TURN)).toBe(true);
  });

  it("closes an earlier killed run where the next process took over, so the later turns fold right", () => {
    const resumed: SessionEvent[] = [
      ...killedRun,
      { type: "session_started", at: 10, info: { ...info, origin: "resume" } },
      { type: "prompt_sent", at: 11, turnId: "t2", prompt: [{ type: "text", text: "again" }] },
      text(12, "done"),
      { type: "prompt_response", at: 13, turnId: "t2", response: { stopReason: "end_turn" } },
      { type: "settled", at: 14 },
    ];
    const s = foldEvents(closeInterruptedRuns(resumed));
    expect(s.pendingPrompts).toEqual([]);
    expect(s.permissions).toEqual([]);
    expect(s.turns.map((t) => [t.id, t.error ?? t.stopReason])).toEqual([
      ["t1", INTERRUPTED_TURN],
      ["t2", "end_turn"],
    ]);
  });

  it("leaves a log that ended cleanly as it was", () => {
    const clean: SessionEvent[] = [
      { type: "session_started", at: 1, info },
      { type: "prompt_sent", at: 2, turnId: "t1", prompt: [{ type: "text", text: "hi" }] },
      { type: "prompt_response", at: 3, turnId: "t1", response: { stopReason: "end_turn" } },
      { type: "settled", at: 4 },
      { type: "agent_exited", at: 5, code: 0, signal: null, stderrTail: "", expected: true },
    ];
    expect(closeInterruptedRuns(clean)).toEqual(clean);
  });
});
