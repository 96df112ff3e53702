import { describe, expect, it } from "vitest";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { chooseScenario } from "../../src/demo/scenario-router.js";
import { appendToHistory, openToolCalls } from "../../src/demo/session-history.js";
import { splitIntoChunks } from "../../src/demo/text-stream.js";

const pick = (text: string) => {
  const choice = chooseScenario(text);
  return [choice.scenario.name, choice.args];
};

describe("choosing a scenario", () => {
  it("matches keywords case-insensitively as whole words, slash commands first", () => {
    expect(pick("Show me MARKDOWN")).toEqual(["markdown", ""]);
    expect(pick("/edit notes/a.md")).toEqual(["edit", "notes/a.md"]);
    expect(pick("please edit the file")).toEqual(["edit", ""]);
    expect(pick("flood 500")).toEqual(["flood", "500"]);
    expect(pick("permissions2")).toEqual(["permissions2", ""]);
    expect(pick("ask for permission")).toEqual(["permission", ""]);
    expect(pick("credit")).toEqual(["help", ""]);
  });

  it("prefers the specific scenario over the common word 'run'", () => {
    expect(pick("run the background job")).toEqual(["background", ""]);
    expect(pick("run something")).toEqual(["run", "something"]);
  });

  it("answers a greeting with a welcome that points at the tour, and 'tour' starts it", () => {
    expect(pick("hello")).toEqual(["help", ""]);
    expect(pick("tour")).toEqual(["tour", ""]);
    expect(pick("tour")).toEqual(["tour", ""]);
  });
});

describe("session history", () => {
  const chunk = (text: string, messageId: string): SessionUpdate => ({
    sessionUpdate: "agent_message_chunk",
    content: { type: "text", text },
    messageId,
  });

  it("merges the chunks of one message and keeps separate messages apart", () => {
    const history: SessionUpdate[] = [];
    for (const update of [chunk("Hel", "m1"), chunk("lo", "m1"), chunk("Bye", "m2")]) appendToHistory(history, update);
    appendToHistory(history, { sessionUpdate: "usage_update", used: 1, size: 2 });
    expect(history).toEqual([chunk("Hello", "m1"), chunk("Bye", "m2")]);
  });

  it("lists tool calls whose last status is not final", () => {
    const history: SessionUpdate[] = [
      { sessionUpdate: "tool_call", toolCallId: "a", title: "a", status: "in_progress", _meta: { terminal_info: { terminal_id: "a" } } },
      { sessionUpdate: "tool_call", toolCallId: "b", title: "b", status: "pending" },
      { sessionUpdate: "tool_call_update", toolCallId: "b", status: "completed" },
      { sessionUpdate: "tool_call_update", toolCallId: "a", _meta: { terminal_output: { terminal_id: "a", data: "x" } } },
    ];
    expect(openToolCalls(history)).toEqual([{ toolCallId: "a", terminalId: "a" }]);
  });
});

describe("chunking", () => {
  it("splits text into small pieces that join back to the original", () => {
    const text = "  Hello,   wonderful\nworld!\n\n```ts\nconst x = 1;\n```\n";
    const pieces = splitIntoChunks(text);
    expect(pieces.join("")).toBe(text);
    expect(pieces.every((piece) => piece.trim().length <= 8)).toBe(true);
    expect(pieces.length).toBeGreaterThan(5);
  });
});
