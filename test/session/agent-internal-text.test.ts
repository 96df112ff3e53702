import { describe, expect, it } from "vitest";
import { indexUpdateOf } from "../../src/orchestrator/record/session-index-keeper.js";
import type { SessionEvent } from "../../src/session/events.js";
import { displayOf } from "../../src/session/profiles/display-of.js";
import { foldEvents } from "../../src/session/reduce.js";
import type { SessionState, TranscriptItem } from "../../src/session/state.js";
import { traceToEvents } from "../support/trace-events.js";

// What an agent keeps for its model is not drawn raw: its profile folds or translates it (issue 20 #8).

const fold = (rel: string, process?: number) => foldEvents(traceToEvents(rel, { process }));
const users = (s: SessionState) => s.items.filter((i): i is Extract<TranscriptItem, { kind: "user" }> => i.kind === "user");
/** Everything a tool call shows, as text. */
const shown = (s: SessionState, toolCallId: string) =>
  displayOf(s, s.toolCalls[toolCallId])
    .blocks.map((b) => ("text" in b ? b.text : ""))
    .join("\n");

describe("claude-agent-acp's internal text", () => {
  it("a Read's result: the system reminder Claude Code appends for its model is not shown", () => {
    const s = fold("claude-agent-acp-0.23.1/s3-edit-diff.jsonl");
    const read = shown(s, "toolu_s3_read");
    expect(read).toContain("line one");
    expect(read).toContain("line three");
    expect(read).not.toMatch(/system-reminder|malware/);
  });

  it("a load's replayed slash command and its output read as the command and its words, not XML", () => {
    const s = fold("claude-agent-acp-0.23.1/s6-load-session.jsonl", 2);
    expect(
      users(s)
        .filter((u) => u.history)
        .map((u) => [u.text, u.internal]),
    ).toEqual([
      ["/model default", true],
      ["Set model to claude-sonnet-4-6", true],
      ["Run echo hello", false],
    ]);
  });

  it("a replayed '[Request interrupted by user]' is agent context, never the session's title", () => {
    const at = 1;
    const chunk = (text: string): SessionEvent => ({
      type: "update",
      at,
      history: true,
      notification: { sessionId: "s1", update: { sessionUpdate: "user_message_chunk", content: { type: "text", text } } },
    });
    const s = foldEvents([
      { type: "agent_ready", at, info: { name: "@zed-industries/claude-agent-acp", version: "0.23.1" } },
      { type: "replay_started", at },
      chunk("[Request interrupted by user]"),
      chunk("Fix the tests<system-reminder>\nThe user sent a new message.\n</system-reminder>"),
      chunk("<system-reminder>only for the model</system-reminder>"),
      { type: "replay_ended", at },
      { type: "session_started", at, info: { sessionId: "s1", cwd: "/p", agentName: "claude", origin: "load" } },
    ]);
    expect(users(s).map((u) => [u.text, u.internal])).toEqual([
      ["(interrupted by the user)", true],
      ["Fix the tests", false],
    ]);
    expect(indexUpdateOf(s, "s1", 0)?.title).toBe("Fix the tests");
  });
});

describe("opencode's todo list", () => {
  it("todowrite is the agent's plan, drawn as a checklist, not a tool call with JSON", () => {
    const s = fold("opencode-1.18.33/g-modes-todos-model.jsonl");
    expect(s.plan).toEqual([
      { content: "Read the code", status: "completed", priority: "high" },
      { content: "Write the fix", status: "in_progress", priority: "high" },
      { content: "Run the tests", status: "pending", priority: "medium" },
    ]);
    expect(s.items.filter((i) => i.kind === "plan")).toHaveLength(1);
    expect(Object.values(s.toolCalls).map((t) => t.title)).not.toContain("2 todos");
    expect(Object.values(s.toolCalls).map((t) => t.title)).not.toContain("todowrite");
  });
});
