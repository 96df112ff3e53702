import { describe, expect, it } from "vitest";
import type { SessionEvent, SessionEventInput } from "../../src/session/events.js";
import { reduce } from "../../src/session/reduce.js";
import { initialSessionState, type SessionState } from "../../src/session/state.js";
import { fenced, transcriptMarkdown, unifiedDiff } from "../../src/export/transcript-markdown.js";
import { CLAUDE_S3, CLAUDE_S7, CODEX_C2, finalState } from "../ui/components/fixtures.js";

const META = { exportedAt: Date.UTC(2025, 0, 31, 12), version: "9.9.9" };

/** A state folded from events written the way the orchestrator logs them. */
function fold(events: SessionEventInput[]): SessionState {
  let s = initialSessionState();
  let at = 1_700_000_000_000;
  for (const e of events) s = reduce(s, { ...e, at: at++ } as SessionEvent);
  return s;
}

const opened: SessionEventInput = {
  type: "session_started",
  info: {
    sessionId: "sess-1234567890",
    cwd: "/work/app",
    agentName: "fake",
    agentInfo: { name: "fake-agent", title: "Fake Agent", version: "2.0" },
    origin: "new",
  },
};
const update = (u: object): SessionEventInput => ({ type: "update", notification: { sessionId: "s", update: u as never } });

describe("the transcript as Markdown", () => {
  it("has a title, the session facts, prompts as headings and answers as the agent wrote them", () => {
    const md = transcriptMarkdown(
      fold([
        opened,
        { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "Fix the build\nplease, it is red" }] },
        update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Sure: **done**." } }),
        { type: "prompt_response", turnId: "t1", response: { stopReason: "end_turn" } },
        { type: "prompt_sent", turnId: "t2", prompt: [{ type: "text", text: "thanks" }] },
        { type: "prompt_response", turnId: "t2", response: { stopReason: "end_turn" } },
      ]),
      META,
    );
    expect(md).toContain("# Fix the build\n");
    expect(md).toContain("- Session: `sess-1234567890`");
    expect(md).toContain("- Agent: Fake Agent 2.0");
    expect(md).toContain("- Directory: `/work/app`");
    expect(md).toContain("- Exported: 2025-01-31T12:00:00.000Z by conch 9.9.9");
    expect(md).toContain("### › Fix the build\n\n> Fix the build\n> please, it is red");
    expect(md).toContain("Sure: **done**.");
    // Turns are separated by a rule; the first has none.
    expect(md.match(/^---$/gm)).toHaveLength(1);
    expect(md.indexOf("---")).toBeGreaterThan(md.indexOf("Sure"));
  });

  it("says under a prompt that the agent ended its turn without a reply (claude 0.23 after an Esc)", () => {
    const md = transcriptMarkdown(
      fold([
        opened,
        { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "and now?" }] },
        { type: "prompt_response", turnId: "t1", response: { stopReason: "end_turn" } },
        { type: "prompt_sent", turnId: "t2", prompt: [{ type: "text", text: "hello?" }] },
        update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hello." } }),
        { type: "prompt_response", turnId: "t2", response: { stopReason: "end_turn" } },
      ]),
      META,
    );
    expect(md).toContain("### › and now?\n\n*(the agent ended the turn without a reply)*");
    expect(md.match(/without a reply/g)).toHaveLength(1);
  });

  it("collapses thoughts, quotes conch's notices, and lists attachments of a prompt", () => {
    const md = transcriptMarkdown(
      fold([
        opened,
        {
          type: "prompt_sent",
          turnId: "t1",
          prompt: [
            { type: "text", text: "look at @a.ts" },
            { type: "resource_link", uri: "file:///work/app/a.ts", name: "a.ts" },
          ],
        },
        update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Let me think.\nStep two." } }),
        { type: "notice", level: "warning", text: "the agent went quiet" },
      ]),
      META,
    );
    expect(md).toContain("- attached: `a.ts` (file:///work/app/a.ts)");
    expect(md).toContain("<details><summary>Thinking</summary>\n\n> Let me think.\n> Step two.\n\n</details>");
    expect(md).toContain("> **Warning:** the agent went quiet");
  });

  it("shows a command call with its permission answer and its output verbatim (codex c2)", () => {
    const md = transcriptMarkdown(finalState(CODEX_C2), META);
    expect(md).toContain("**✓ echo hello** · *execute · completed · allowed once*");
    expect(md).toContain("```\nhello\n```");
  });

  it("shows the command line of a call whose title is not the command", () => {
    const md = transcriptMarkdown(
      fold([
        opened,
        { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "test" }] },
        update({
          sessionUpdate: "tool_call",
          toolCallId: "c1",
          title: "Run the tests",
          kind: "execute",
          status: "failed",
          rawInput: { command: ["bash", "-lc", "npm test -- --run"], cwd: "/work/app/pkg" },
          rawOutput: { stdout: "1 failed" },
        }),
      ]),
      META,
    );
    expect(md).toContain("**✗ Run the tests** · *execute · failed*");
    expect(md).toContain("```sh\n$ npm test -- --run\n```");
    expect(md).toContain("in `/work/app/pkg`");
    expect(md).toContain("```\n1 failed\n```");
  });

  it("shows an edit as a unified diff (claude s3) and a plan as a checklist (claude s7)", () => {
    const edit = transcriptMarkdown(finalState(CLAUDE_S3), META);
    expect(edit).toContain("```diff\n--- a/hello.txt\n+++ b/hello.txt\n@@ ");
    expect(edit).toMatch(/^ line one$/m);
    expect(edit).toMatch(/^-line two$/m);
    expect(edit).toMatch(/^\+line 2 \(edited by the fake model\)$/m);
    expect(edit).toContain("--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1,3 @@\n+# Notes");
    const plan = transcriptMarkdown(finalState(CLAUDE_S7), META);
    expect(plan).toMatch(/\*\*Plan\*\* · \d+\/\d+ done/);
    expect(plan).toMatch(/^- \[[ x]\] /m);
  });

  it("holds no escape sequence, whatever the agent sent, and keeps program output out of markdown", () => {
    const hostile = "\u001b]52;c;ZXZpbA==\u0007pwned \u001b[2J\u001b[31mred\u001b[0m";
    const md = transcriptMarkdown(
      fold([
        opened,
        { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "go" }] },
        update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: hostile } }),
        update({
          sessionUpdate: "tool_call",
          toolCallId: "c1",
          title: `run ${hostile}`,
          kind: "execute",
          status: "completed",
          rawInput: { command: "printf '```'" },
          content: [{ type: "content", content: { type: "text", text: "```\nline with ``` fences \u001b[32mgreen\u001b[0m\n```" } }],
        }),
        { type: "terminal_started", terminalId: "term-1", command: "make", args: [], cwd: "/work/app" },
        { type: "terminal_output", terminalId: "term-1", data: "\u001b[1mbold\u001b[0m\r\n50%\r100%\r\n\u001b]0;title\u0007" },
      ]),
      META,
    );

    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(md).toContain("pwned");
    expect(md).toContain("red");
    // The output holds three backticks: its fence is longer, so it cannot close early.
    expect(md).toContain("````\nline with ``` fences green\n````");
  });

  it("fences text longer than any backtick run inside it", () => {
    expect(fenced("a ``` b", "text")).toBe("````text\na ``` b\n````");
    expect(fenced("plain")).toBe("```\nplain\n```");
  });

  it("writes a new file's diff against /dev/null", () => {
    expect(unifiedDiff("notes.md", null, "one\ntwo\n")).toBe("--- /dev/null\n+++ b/notes.md\n@@ -0,0 +1,2 @@\n+one\n+two");
  });
});
