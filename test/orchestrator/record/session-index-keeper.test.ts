import { describe, expect, it } from "vitest";
import { indexUpdateOf } from "../../../src/orchestrator/record/session-index-keeper.js";
import type { SessionEvent, SessionEventInput } from "../../../src/session/events.js";
import { reduce } from "../../../src/session/reduce.js";
import { initialSessionState, type SessionState } from "../../../src/session/state.js";

function fold(inputs: SessionEventInput[], from: SessionState = initialSessionState()): SessionState {
  return inputs.reduce((s, input, i) => reduce(s, { ...input, at: i } as SessionEvent), from);
}

const opened = (sessionId: string): SessionEventInput => ({
  type: "session_started",
  info: { sessionId, cwd: "/w", agentName: "demo", origin: "new" },
});
const turn = (turnId: string, prompt: string, answer: string): SessionEventInput[] => [
  { type: "prompt_sent", turnId, prompt: [{ type: "text", text: prompt }] },
  {
    type: "update",
    notification: { sessionId: "s1", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: answer } } },
  },
  { type: "prompt_response", turnId, response: { stopReason: "end_turn" } },
  { type: "settled" },
];

describe("what the session index says of a session", () => {
  it("its title is the first line of its first prompt, its count the prompts and answers, with the last stop reason", () => {
    const s = fold([opened("s1"), ...turn("t1", "fix the build\nit fails on CI", "done"), ...turn("t2", "thanks", "welcome")]);
    expect(indexUpdateOf(s, "s1", 0)).toMatchObject({ id: "s1", title: "fix the build", messageCount: 4, lastStopReason: "end_turn" });
  });

  it("after /clear, only the new session's items count, and the old log's entry is not touched", () => {
    const before = fold([
      opened("s1"),
      ...turn("t1", "old question", "old answer"),
      { type: "session_left", sessionId: "s1", closed: true },
    ]);
    const from = before.items.length;
    const s = fold([opened("s2"), ...turn("t2", "new question", "new answer")], before);
    expect(indexUpdateOf(s, "s2", from)).toMatchObject({ id: "s2", title: "new question", messageCount: 2 });
    expect(indexUpdateOf(s, "s1", from)).toBeUndefined();
  });
});
