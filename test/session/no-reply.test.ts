import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { foldEvents } from "../../src/session/reduce.js";
import type { TranscriptItem } from "../../src/session/state.js";
import { itemRows } from "../../src/ui/render/item-rows.js";
import { plainRows } from "../ui/render/plain-rows.js";

const info = { sessionId: "s1", cwd: "/w", agentName: "a", origin: "new" as const };
const update = (at: number, u: object): SessionEvent => ({ type: "update", at, notification: { sessionId: "s1", update: u as never } });
const text = (at: number, kind: "agent_message_chunk" | "agent_thought_chunk", t: string) =>
  update(at, { sessionUpdate: kind, content: { type: "text", text: t } });

/** One prompt answered with `between` and then `stopReason`. */
function turn(
  between: SessionEvent[],
  response: Extract<SessionEvent, { type: "prompt_response" }>["response"] = { stopReason: "end_turn" },
  error?: string,
) {
  return foldEvents([
    { type: "session_started", at: 1, info },
    { type: "prompt_sent", at: 2, turnId: "t1", prompt: [{ type: "text", text: "and now?" }] },
    ...between,
    { type: "prompt_response", at: 9, turnId: "t1", response, error },
  ]);
}

const kinds = (items: TranscriptItem[]) => items.filter((i) => i.kind !== "turn").map((i) => i.kind);

describe("a turn the agent ended without a reply", () => {
  it("says so under the prompt (claude-agent-acp 0.23 after an Esc: end_turn at once, zero usage, no content)", () => {
    const s = turn([], { stopReason: "end_turn", usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } } as never);
    expect(kinds(s.items)).toEqual(["user", "no_reply"]);
    const mark = s.items.find((i) => i.kind === "no_reply")!;
    expect(plainRows(itemRows({ item: mark }, { width: 80 }))).toBe("(the agent ended the turn without a reply)");
  });

  it("does not for a turn with text, a thought or a tool call, or one that failed or was cancelled", () => {
    expect(kinds(turn([text(3, "agent_message_chunk", "Here.")]).items)).toEqual(["user", "agent"]);
    expect(kinds(turn([text(3, "agent_thought_chunk", "Hmm.")]).items)).toEqual(["user", "thought"]);
    const call = update(3, { sessionUpdate: "tool_call", toolCallId: "c1", title: "ls", kind: "execute", status: "completed" });
    expect(kinds(turn([call]).items)).toEqual(["user", "tool"]);
    expect(kinds(turn([], undefined, "the agent failed").items)).toEqual(["user", "notice"]);
    expect(kinds(turn([{ type: "cancel_requested", at: 3 }], { stopReason: "cancelled" }).items)).toEqual(["user", "interrupted"]);
  });

  it("counts only what the agent sent: a blank chunk is no reply", () => {
    expect(kinds(turn([text(3, "agent_message_chunk", "\n")]).items).at(-1)).toBe("no_reply");
  });
});
