import type { CreateElicitationRequest } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { localHistoryOf } from "../../src/session/local-history.js";
import { foldEvents } from "../../src/session/reduce.js";
import type { TranscriptItem } from "../../src/session/state.js";

const info = { sessionId: "s1", cwd: "/w", agentName: "demo", origin: "new" as const };
const chunk = (at: number, kind: "agent_message_chunk" | "user_message_chunk", text: string, messageId?: string): SessionEvent => ({
  type: "update",
  at,
  notification: { sessionId: "s1", update: { sessionUpdate: kind, content: { type: "text", text }, ...(messageId ? { messageId } : {}) } },
});
const request = {
  sessionId: "s1",
  mode: "form",
  message: "How should I set up the project?",
  requestedSchema: { type: "object", properties: {} },
};

/** A prompt whose answer asks the person a question between two messages; then a second prompt with the same text, asked nothing. */
const live: SessionEvent[] = [
  { type: "session_started", at: 1, info },
  { type: "prompt_sent", at: 2, turnId: "t1", prompt: [{ type: "text", text: "question" }] },
  chunk(3, "agent_message_chunk", "Before I scaffold", "m1"),
  chunk(4, "agent_message_chunk", " the project, a few questions.", "m1"),
  { type: "question_asked", at: 5, key: "q1", request: request as unknown as CreateElicitationRequest },
  { type: "question_answered", at: 6, key: "q1", response: { action: "decline" }, source: "user" },
  chunk(7, "agent_message_chunk", "You chose **decline**, so I'll leave it.", "m2"),
  { type: "prompt_response", at: 8, turnId: "t1", response: { stopReason: "end_turn" } },
  { type: "prompt_sent", at: 9, turnId: "t2", prompt: [{ type: "text", text: "question" }] },
  chunk(10, "agent_message_chunk", "Nothing to ask this time.", "m3"),
  { type: "prompt_response", at: 11, turnId: "t2", response: { stopReason: "end_turn" } },
];

const shape = (items: TranscriptItem[]) =>
  items.filter((i) => i.kind !== "turn").map((i) => ("text" in i ? `${i.kind}: ${i.text}` : i.kind));

const LIVE_SHAPE = [
  "user: question",
  "agent: Before I scaffold the project, a few questions.",
  "notice: demo asks: How should I set up the project?",
  "notice: answered: decline",
  "agent: You chose **decline**, so I'll leave it.",
  "user: question",
  "agent: Nothing to ask this time.",
];

/** The agent's replay of `live`, each turn's text in the given messages. */
function replay(first: string[], second = "Nothing to ask this time."): SessionEvent[] {
  return [
    { type: "replay_started", at: 20, local: localHistoryOf(foldEvents(live)) },
    chunk(21, "user_message_chunk", "question"),
    ...first.map((text, i) => chunk(22 + i, "agent_message_chunk", text, `r${i}`)),
    chunk(30, "user_message_chunk", "question"),
    chunk(31, "agent_message_chunk", second, "r9"),
    { type: "replay_ended", at: 32 },
  ];
}

describe("a replayed turn gets back the question notices conch showed live", () => {
  it("live, the notices come between the agent's two messages", () => {
    expect(shape(foldEvents(live).items)).toEqual(LIVE_SHAPE);
  });

  it("a replay that joins the turn's text in one message is cut where the notices were", () => {
    const s = foldEvents(replay(["Before I scaffold the project, a few questions.\n\nYou chose **decline**, so I'll leave it."]));
    expect(shape(s.items)).toEqual(LIVE_SHAPE);
    expect(s.replayMarks).toBeUndefined();
  });

  it("a replay that sends the messages as they were puts the notices between them", () => {
    const s = foldEvents(replay(["Before I scaffold the project, a few questions.", "You chose **decline**, so I'll leave it."]));
    expect(shape(s.items)).toEqual(LIVE_SHAPE);
  });

  it("a replay whose text differs gets the notices at the end of the turn, not lost", () => {
    const s = foldEvents(replay(["Short."]));
    expect(shape(s.items).slice(0, 4)).toEqual([
      "user: question",
      "agent: Short.",
      "notice: demo asks: How should I set up the project?",
      "notice: answered: decline",
    ]);
    expect(shape(s.items).slice(4)).toEqual(LIVE_SHAPE.slice(5));
  });
});

const call = (at: number, toolCallId: string): SessionEvent => ({
  type: "update",
  at,
  notification: { sessionId: "s1", update: { sessionUpdate: "tool_call", toolCallId, title: `run ${toolCallId}`, status: "completed" } },
});

/** A turn with a question between text and a call, or between a call and text. */
function withCall(questionFirst: boolean): SessionEvent[] {
  const question: SessionEvent[] = [
    { type: "question_asked", at: 5, key: "q1", request: request as unknown as CreateElicitationRequest },
    { type: "question_answered", at: 6, key: "q1", response: { action: "decline" }, source: "user" },
  ];
  return [
    { type: "session_started", at: 1, info },
    { type: "prompt_sent", at: 2, turnId: "t1", prompt: [{ type: "text", text: "question" }] },
    chunk(3, "agent_message_chunk", "First.", "m1"),
    ...(questionFirst ? [...question, call(7, "c1")] : [call(4, "c1"), ...question]),
    chunk(8, "agent_message_chunk", "Then.", "m2"),
    { type: "prompt_response", at: 9, turnId: "t1", response: { stopReason: "end_turn" } },
  ];
}

describe("a replayed turn with a tool call", () => {
  const items = (s: ReturnType<typeof foldEvents>) =>
    s.items.filter((i) => i.kind !== "turn").map((i) => (i.kind === "tool" ? "tool" : "text" in i ? i.text : i.kind));
  for (const questionFirst of [true, false]) {
    it(`gets the notices ${questionFirst ? "before" : "after"} the call, as they were live`, () => {
      const live = withCall(questionFirst);
      const s = foldEvents([
        { type: "replay_started", at: 20, local: localHistoryOf(foldEvents(live)) },
        chunk(21, "user_message_chunk", "question"),
        chunk(22, "agent_message_chunk", "First.", "r1"),
        call(23, "c1"),
        chunk(24, "agent_message_chunk", "Then.", "r2"),
        { type: "replay_ended", at: 25 },
      ]);
      expect(items(s)).toEqual(items(foldEvents(live)));
      expect(items(s).indexOf("answered: decline") < items(s).indexOf("tool")).toBe(questionFirst);
    });
  }
});
