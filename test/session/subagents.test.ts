import path from "node:path";
import { describe, expect, it } from "vitest";
import { foldEvents } from "../../src/session/reduce.js";
import { displayStatus, type SessionState } from "../../src/session/state.js";
import { traceToEvents } from "../support/trace-events.js";

const fixture = (name: string) => foldEvents(traceToEvents(path.resolve(__dirname, "../fixtures/subagents", name)));
/** The tool calls shown on their own (a transcript item each), as `title [status]`. */
const shown = (s: SessionState) =>
  s.items
    .filter((i) => i.kind === "tool")
    .map((i) => s.toolCalls[(i as { toolCallId: string }).toolCallId])
    .map((t) => `${t.title} [${displayStatus(t)}]`);
const fold = (s: SessionState, id: string) =>
  (s.toolCalls[id].subagentCalls ?? []).map((c) => `${s.toolCalls[c].title} [${displayStatus(s.toolCalls[c])}]`);

describe("a subagent's calls are grouped under the call that started it", () => {
  it("claude (_meta.claudeCode.parentToolUseId): the Task call holds the subagent's Grep and Read; its words are not the answer", () => {
    const s = fixture("claude-parent-tool-use.jsonl");
    expect(shown(s)).toEqual(["Task [completed]"]);
    expect(fold(s, "toolu_task")).toEqual(['grep "loadConfig" [completed]', "Read src/config.ts [completed]"]);
    expect(s.toolCalls.toolu_read.subagentOf).toBe("toolu_task");
    expect(s.items.filter((i) => i.kind === "agent").map((i) => (i as { text: string }).text)).toEqual([
      "I'll ask a subagent to look.",
      "It is read in src/config.ts.",
    ]);
  });

  it("codex (spawnAgent's receiverThreadIds, _meta.codex.subagent): the subagent's activity goes under the spawn", () => {
    const s = fixture("codex-spawn-agent.jsonl");
    expect(shown(s)).toEqual(["spawnAgent [completed]"]);
    expect(fold(s, "call_spawn")).toEqual(["Start subagent reviewer [completed]", "Complete subagent reviewer [completed]"]);
  });

  it("the ACP subagents draft (subagentSessionId): one call for the subagent, its own status, its calls and words inside; its settings stay its own", () => {
    const s = fixture("rfd-child-session.jsonl");
    expect(shown(s)).toEqual(["tester: Run the tests [completed]"]);
    const call = s.toolCalls["subagent:sess-child"];
    expect(fold(s, call.toolCallId)).toEqual(["npm test [completed]"]);
    expect(JSON.stringify(call.content)).toContain("Running npm test.");
    // The child's config_option_update is the child's: the parent's options are untouched.
    expect(s.configOptions).toEqual([]);
    expect(s.items.filter((i) => i.kind === "unknown")).toEqual([]);
  });

  it("the draft's subagent that never reports an end is not left running when its state says disconnected", () => {
    const events = traceToEvents(path.resolve(__dirname, "../fixtures/subagents/rfd-child-session.jsonl")).map((e) =>
      e.type === "update" && (e.notification.update as { state?: string }).state === "completed"
        ? { ...e, notification: { ...e.notification, update: { ...e.notification.update, state: "disconnected" } as never } }
        : e,
    );
    const s = foldEvents(events);
    expect(displayStatus(s.toolCalls["subagent:sess-child"])).toBe("interrupted");
  });
});

describe("an export lists a subagent's calls under the call that started it", () => {
  it("claude's Task call with its Grep and Read", async () => {
    const { toolMarkdown } = await import("../../src/export/transcript-markdown.js");
    const s = fixture("claude-parent-tool-use.jsonl");
    const md = toolMarkdown(s.toolCalls.toolu_task, s);
    expect(md).toContain('- ✓ grep "loadConfig" · *completed*');
    expect(md).toContain("- ✓ Read src/config.ts · *completed*");
  });
});
