import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { interruptedPromptsOf } from "../../src/session/interrupted-marks.js";
import { localHistoryOf } from "../../src/session/local-history.js";
import { foldEvents } from "../../src/session/reduce.js";
import type { TranscriptItem } from "../../src/session/state.js";

const info = { sessionId: "s1", cwd: "/w", agentName: "a", origin: "new" as const };
const chunk = (at: number, kind: "agent_message_chunk" | "user_message_chunk", text: string): SessionEvent => ({
  type: "update",
  at,
  notification: { sessionId: "s1", update: { sessionUpdate: kind, content: { type: "text", text } } },
});

/** Three prompts, the second cut off by Esc; the third repeats its text and ran to the end. */
const live: SessionEvent[] = [
  { type: "session_started", at: 1, info },
  { type: "prompt_sent", at: 2, turnId: "t1", prompt: [{ type: "text", text: "build" }] },
  chunk(3, "agent_message_chunk", "Built."),
  { type: "prompt_response", at: 4, turnId: "t1", response: { stopReason: "end_turn" } },
  { type: "prompt_sent", at: 5, turnId: "t2", prompt: [{ type: "text", text: "explain" }] },
  chunk(6, "agent_message_chunk", "It is a long story that"),
  { type: "cancel_requested", at: 7 },
  { type: "prompt_response", at: 8, turnId: "t2", response: { stopReason: "cancelled" } },
  { type: "prompt_sent", at: 9, turnId: "t3", prompt: [{ type: "text", text: "explain" }] },
  chunk(10, "agent_message_chunk", "Here it is in full."),
  { type: "prompt_response", at: 11, turnId: "t3", response: { stopReason: "end_turn" } },
];

const shape = (items: TranscriptItem[]) =>
  items.filter((i) => i.kind !== "turn").map((i) => (i.kind === "interrupted" ? "⊘" : "text" in i ? `${i.kind}: ${i.text}` : i.kind));

/** What `live` shows: the cancelled answer as far as it got, marked, then the prompt again. */
const LIVE_SHAPE = [
  "user: build",
  "agent: Built.",
  "user: explain",
  "agent: It is a long story that",
  "⊘",
  "user: explain",
  "agent: Here it is in full.",
];

describe("a turn the person interrupted", () => {
  it("ends with an interrupted mark, after what the agent said before the cancel", () => {
    expect(shape(foldEvents(live).items)).toEqual(LIVE_SHAPE);
  });

  it("is marked again when the agent replays the session (--resume with session/load), matched by prompt and order", () => {
    const local = localHistoryOf(foldEvents(live));
    expect(interruptedPromptsOf(foldEvents(live))).toEqual([{ prompt: "explain", nth: 0 }]);
    const replay: SessionEvent[] = [
      { type: "replay_started", at: 20, local },
      chunk(21, "user_message_chunk", "build"),
      chunk(22, "agent_message_chunk", "Built."),
      chunk(23, "user_message_chunk", "explain"),
      chunk(24, "agent_message_chunk", "It is a long story that"),
      chunk(25, "user_message_chunk", "explain"),
      chunk(26, "agent_message_chunk", "Here it is in full."),
      { type: "replay_ended", at: 27 },
    ];
    const s = foldEvents(replay);
    expect(shape(s.items)).toEqual(LIVE_SHAPE);
    expect(s.replayMarks).toBeUndefined();
  });

  it("marks the last replayed turn when it is the one interrupted", () => {
    const cutLast = live.slice(0, 8);
    const local = localHistoryOf(foldEvents(cutLast));
    const s = foldEvents([
      { type: "replay_started", at: 20, local },
      chunk(21, "user_message_chunk", "build"),
      chunk(22, "agent_message_chunk", "Built."),
      chunk(23, "user_message_chunk", "explain"),
      chunk(24, "agent_message_chunk", "It is a long story that"),
      { type: "replay_ended", at: 25 },
    ]);
    expect(shape(s.items).at(-1)).toBe("⊘");
  });
});
