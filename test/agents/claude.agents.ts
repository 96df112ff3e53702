/**
 * conch -p against the real claude-agent-acp, 0.23.1 (`claude`) and 0.100.0 (`claude-next`), for
 * every claude model script (s1–s7) of ../shared/real-agents/scripts/claude.
 */
import { describe, expect, it } from "vitest";
import { conch, linesOf, reportSkip, resultOf, shell, toolSummary, updatesOf, CONCH, sq, type AgentName } from "./support/real-agents.js";
import { describeModes, expectNoCrashes, lazyScenario } from "./support/scenario.js";

const AGENTS: AgentName[] = ["claude", "claude-next"];

/** Every diff item a stream-json run showed (tool call lines and permission requests). */
function diffsOf(events: Record<string, any>[]): { path: string; oldText?: string | null; newText: string }[] {
  const out: { path: string; oldText?: string | null; newText: string }[] = [];
  for (const e of events) {
    const content = e.type === "tool_call" || (e.type === "permission" && e.subtype === "asked") ? e.content : undefined;
    if (!Array.isArray(content)) continue;
    for (const c of content) if (c?.type === "diff") out.push(c);
  }
  return out;
}

for (const agent of AGENTS) {
  const skip = reportSkip(agent);
  describe.skipIf(skip)(`${agent}${skip ? " (NOT INSTALLED: skipped)" : ""}`, () => {
    describeModes((mode) => {
      describe("s1-text", () => {
        const run = lazyScenario(agent, mode, "claude/s1-text.json", [
          conch("json", "Say hello", { format: "json" }),
          conch("text", "Say hello", { format: "text" }),
        ]);

        it("s1 json: `text` is the streamed answer without the thinking, stopReason end_turn, no tool calls, exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "json");
          expect(res.text, r.describe("json")).toBe("Hello from the fake Anthropic API! This reply is streamed in several small chunks.");
          expect(res.stopReason).toBe("end_turn");
          expect(res.toolCalls).toEqual([]);
          expect(res.error).toBeNull();
          expect(res.sessionId).toBeTruthy();
          expect(r.steps.json.code).toBe(0);
        });

        it("s1 text: stdout is exactly the answer and a newline, exit 0", async () => {
          const r = await run();
          expect(r.steps.text.stdout, r.describe("text")).toBe(
            "Hello from the fake Anthropic API! This reply is streamed in several small chunks.\n",
          );
          expect(r.steps.text.code).toBe(0);
        });
      });

      describe("s2-bash-permission", () => {
        const run = lazyScenario(agent, mode, "claude/s2-bash-permission.json", [
          conch("text", "Run echo hello", { format: "text", permissions: "approve-all" }),
          conch("stream", "Run echo hello", { format: "stream-json", permissions: "approve-all" }),
        ]);

        it("s2 approve-all, text: the answer on stdout, `[tool] echo hello (execute): completed` on stderr, exit 0", async () => {
          const r = await run();
          const s = r.steps.text;
          expect(s?.code, r.describe("text")).toBe(0);
          expect(s.stdout).toBe("I'll run that command.\n\nThe command printed: hello\n");
          expect(s.stderr).toContain("[tool] echo hello (execute): completed");
          expect(s.stderr).not.toContain("permission refused");
        });

        it('s2 approve-all, stream-json: the permission is granted by policy and the command\'s output "hello" reaches the user', async () => {
          const r = await run();
          const s = r.steps.stream;
          expect(s?.code, r.describe("stream")).toBe(0);
          const answered = linesOf(s, "permission", "answered");
          expect(answered).toHaveLength(1);
          expect(answered[0]).toMatchObject({ source: "policy", outcome: "selected" });
          const bash = updatesOf(s)
            .filter((u) => u.update.toolCallId === "toolu_s2_bash_echo")
            .map((u) => u.update);
          const shown = bash.some(
            (u) =>
              String(u._meta?.terminal_output?.data ?? "").includes("hello") ||
              u.rawOutput === "hello" ||
              (Array.isArray(u.content) &&
                u.content.some((c: any) => c?.type === "content" && /hello\n/.test(String(c.content?.text ?? "")))),
          );
          expect(shown, r.describe("stream")).toBe(true);
          expect(resultOf(r, "stream").toolCalls.map((t) => t.status)).toEqual(["completed"]);
        });
      });

      describe("s3-edit-diff", () => {
        const run = lazyScenario(
          agent,
          mode,
          "claude/s3-edit-diff.json",
          [conch("p1", "Fix hello.txt and write notes", { format: "stream-json", permissions: "approve-all" })],
          {
            files: ["hello.txt", "notes.md"],
          },
        );

        it("s3 approve-all: Read, Edit and Write are completed, stopReason end_turn, exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(res.exitCode, r.describe("p1")).toBe(0);
          expect(r.steps.p1.code).toBe(0);
          expect(res.stopReason).toBe("end_turn");
          expect(res.text).toContain("Edited hello.txt and wrote notes.md.");
          const tools = toolSummary(res);
          expect(tools.map((t) => t.status)).toEqual(["completed", "completed", "completed"]);
          expect(tools.map((t) => t.kind)).toEqual(["read", "edit", "edit"]);
          expect(tools[0].title).toContain("hello.txt");
          expect(tools[1].title).toContain("hello.txt");
          expect(tools[2].title).toContain("notes.md");
        });

        it("s3: the edit's diff (hello.txt) and the new file's diff (notes.md) reach the user", async () => {
          const r = await run();
          const diffs = diffsOf(r.steps.p1?.events ?? []);
          expect(
            diffs.some((d) => d.path.endsWith("/hello.txt") && d.newText.includes("line 2 (edited by the fake model)")),
            r.describe("p1"),
          ).toBe(true);
          expect(diffs.some((d) => d.path.endsWith("/notes.md") && d.newText.includes("hello.txt line two was edited."))).toBe(true);
        });

        it("s3: hello.txt is edited and notes.md written on disk", async () => {
          const r = await run();
          expect(r.files["hello.txt"], r.describe()).toBe("line one\nline 2 (edited by the fake model)\nline three\n");
          expect(r.files["notes.md"]).toBe("# Notes\n\nhello.txt line two was edited.\n");
        });
      });

      describe("s4-background-bash", () => {
        const run = lazyScenario(agent, mode, "claude/s4-background-bash.json", [
          conch("p1", "Start the background job"),
          conch("p2", "Second prompt, sent right after p1 returned", { resumeFrom: "p1" }),
          conch("p3", "Start another background job", { resumeFrom: "p1" }),
          conch("p4", "Fourth prompt, sent while p3 is still pending", { resumeFrom: "p1" }),
          conch("p5", "Fifth prompt, after everything settled", { resumeFrom: "p1" }),
        ]);

        it('s4 p1: conch waits for the background job; `text` ends with the follow-up "The background job printed: done", exit 0', async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(res.text, r.describe("p1")).toContain("Starting it in the background.");
          expect(res.text).toContain("The background job printed: done");
          expect(res.toolCalls.find((t) => t.title === "sleep 3; echo done")).toMatchObject({ kind: "execute", status: "completed" });
          expect(res.toolCalls.every((t) => t.status === "completed")).toBe(true);
          expect(res.stopReason).toBe("end_turn");
          expect(r.steps.p1.code).toBe(0);
        });

        it("s4 p2 (--resume): only the second prompt's answer, nothing of p1's background work, exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p2");
          expect(res.text, r.describe("p2")).toBe("Answer to the second prompt.");
          expect(res.toolCalls).toEqual([]);
          expect(res.sessionId).toBe(resultOf(r, "p1").sessionId);
          expect(r.steps.p2.code).toBe(0);
        });

        it('s4 p3 (--resume): the second background job\'s follow-up "The background job printed: done2" is in `text`, exit 0', async () => {
          const r = await run();
          const res = resultOf(r, "p3");
          expect(res.text, r.describe("p3")).toContain("The background job printed: done2");
          expect(res.toolCalls.find((t) => t.title === "sleep 3; echo done2")).toMatchObject({ kind: "execute", status: "completed" });
          expect(r.steps.p3.code).toBe(0);
        });

        it("s4 p4 and p5 (--resume): each prompt's own answer only, exit 0", async () => {
          const r = await run();
          expect(resultOf(r, "p4").text, r.describe("p4")).toBe("Answer to the fourth prompt.");
          expect(r.steps.p4.code).toBe(0);
          expect(resultOf(r, "p5").text, r.describe("p5")).toBe("Answer to the fifth prompt.");
          expect(r.steps.p5.code).toBe(0);
        });
      });

      describe("s4-background-bash, cancelled", () => {
        // A cancel mid-turn for claude: Ctrl-C while conch waits for the background job (0.23.1 holds
        // the prompt response; 0.100.0 has answered and conch is draining). Then the session resumes.
        const run = lazyScenario(agent, mode, "claude/s4-background-bash.json", [
          conch("p1", "Start the background job", { format: "stream-json", interruptWhen: "Command running in background" }),
          conch("p2", "Second prompt, sent right after p1 returned", { resumeFrom: "p1" }),
        ]);

        it("s4 Ctrl-C while the background job runs: the turn is cancelled, no tool call left running, exit 130", async () => {
          const r = await run();
          const s = r.steps.p1;
          const res = resultOf(r, "p1");
          expect(s.interrupted, r.describe("p1")).toBe(true);
          expect(s.code, r.describe("p1")).toBe(130);
          expect(res.exitCode).toBe(130);
          // 0.100.0 has already answered end_turn; 0.23.1 answers `cancelled`, or, when the cancel lands
          // while it holds the response for the background task, finishes that turn first: with
          // `end_turn`, and once in three full runs with `cancelled` after the follow-up's text (an
          // agent-side race: what it streamed before its answer belongs to the turn either way). When
          // the cancel lands while it holds the response, it answers only once the 3 s task is over,
          // after conch's 1 s wait for an answer (Ctrl-C ends a run within 5 s whatever the agent
          // does): no answer, `null` (as the README says), and the turn still ends here.
          expect(["cancelled", "end_turn", null]).toContain(res.stopReason);
          expect(res.toolCalls.filter((t) => t.status === "pending" || t.status === "in_progress")).toEqual([]);
        });

        it("s4 after the Ctrl-C, --resume: the session loads and the next prompt is answered (nothing of p1 repeated), exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p2");
          expect(r.steps.p2.code, r.describe("p2")).toBe(0);
          expect(res.stopReason).toBe("end_turn");
          // 0.100.0 first delivers the interrupted task's notification to the model in this turn, so the
          // fake model answers that instead of "Answer to the second prompt.".
          expect(res.text, r.describe("p2")).toMatch(/Answer to the second prompt\.|Background task toolu_s4_bg1 finished/);
          expect(res.text).not.toContain("Starting it in the background.");
        });
      });

      describe("s5-cancel-permission", () => {
        // Print mode cannot leave a permission request open (it answers by policy at once), so the
        // Bash call is refused by `--permissions deny`; cancelling with the request open is a TUI case.
        const run = lazyScenario(
          agent,
          mode,
          "claude/s5-cancel-permission.json",
          [
            conch("p1", "Create the marker file", { permissions: "deny" }),
            shell(`if [ -e cancel-me.txt ]; then echo yes; else echo no; fi >"$OUT/extra-marker-after-p1"`),
            conch("p2", "Are you still there?", { resumeFrom: "p1" }),
            conch("p3", "Third prompt", { resumeFrom: "p1" }),
          ],
          { files: ["cancel-me.txt"] },
        );

        it("s5 p1 --permissions deny: the Bash call is shown refused, listed in permissionsDenied, the command did not run, exit 5", async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(r.steps.p1.code, r.describe("p1")).toBe(5);
          expect(res.exitCode).toBe(5);
          const touch = res.toolCalls.find((t) => t.title === "touch cancel-me.txt");
          expect(touch, r.describe("p1")).toBeDefined();
          // claude itself reports the refused call `failed`; conch may show it as `rejected`.
          expect(["rejected", "failed"]).toContain(touch!.status);
          expect(res.permissionsDenied.map((d) => d.title)).toEqual(["touch cancel-me.txt"]);
          expect(r.extras["marker-after-p1"]?.trim()).toBe("no");
        });

        it('s5 p2 (--resume after the refusal): the agent is still usable and answers "Yes. The previous command was cancelled.", exit 0', async () => {
          const r = await run();
          const res = resultOf(r, "p2");
          expect(res.text, r.describe("p2")).toContain("Yes. The previous command was cancelled.");
          expect(res.stopReason).toBe("end_turn");
          expect(r.steps.p2.code).toBe(0);
        });

        it('s5 p3 (--resume): "Answer to the third prompt.", exit 0; cancel-me.txt never created', async () => {
          const r = await run();
          const res = resultOf(r, "p3");
          expect(res.text, r.describe("p3")).toContain("Answer to the third prompt.");
          expect(r.steps.p3.code).toBe(0);
          expect(r.files["cancel-me.txt"]).toBeNull();
        });
      });

      describe("s6-load-session", () => {
        const run = lazyScenario(agent, mode, "claude/s6-load-session.json", [
          conch("p1", "Run echo hello", { permissions: "approve-all" }),
          conch("p2", "What did you run before?", { resumeFrom: "p1" }),
          conch("p3", "And after resume?", { resumeFrom: "p1" }),
          shell(`node ${sq(CONCH)} sessions --json >"$OUT/extra-sessions" 2>&1 </dev/null`),
        ]);

        it('s6 p1 approve-all: echo hello is completed, "The command printed: hello", exit 0', async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(r.steps.p1.code, r.describe("p1")).toBe(0);
          expect(toolSummary(res)).toEqual([{ title: "echo hello", kind: "execute", status: "completed" }]);
          expect(res.text).toContain("The command printed: hello");
        });

        it("s6 p2 --resume (session/load in a new agent process): the model got the history; `text` is only the new answer, no replayed tool calls, exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p2");
          expect(res.text, r.describe("p2")).toBe("Earlier I ran `echo hello` (history was restored).");
          expect(res.toolCalls).toEqual([]);
          expect(res.sessionId).toBe(resultOf(r, "p1").sessionId);
          expect(res.stopReason).toBe("end_turn");
          expect(r.steps.p2.code).toBe(0);
        });

        it('s6 p3 --resume again: "Resumed session still has the history.", exit 0', async () => {
          const r = await run();
          const res = resultOf(r, "p3");
          expect(res.text, r.describe("p3")).toBe("Resumed session still has the history.");
          expect(r.steps.p3.code).toBe(0);
        });

        it("s6: `conch sessions --json` lists the session in the project directory", async () => {
          const r = await run();
          const sid = resultOf(r, "p1").sessionId;
          const list = JSON.parse(r.extras.sessions ?? "null") as { id: string; cwd: string }[];
          expect(list, r.extras.sessions).toEqual(expect.arrayContaining([expect.objectContaining({ id: sid })]));
          expect(list.filter((s) => s.id === sid)).toHaveLength(1);
          expect(list.find((s) => s.id === sid)!.cwd).toMatch(/\/project$/);
        });
      });

      describe("s7-todowrite-plan", () => {
        const run = lazyScenario(agent, mode, "claude/s7-todowrite-plan.json", [conch("p1", "Plan the work", { format: "stream-json" })]);

        it("s7: the plan streams (3 entries, the last update with its final statuses), TodoWrite is no tool call, exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(r.steps.p1.code, r.describe("p1")).toBe(0);
          expect(res.text).toContain("I'll track this with a todo list.");
          expect(res.text).toContain("Plan updated.");
          expect(res.toolCalls).toEqual([]);
          const plans = linesOf(r.steps.p1, "plan");
          expect(plans.length).toBe(2);
          const last = plans.at(-1)!.entries as { content: string; status: string }[];
          expect(last.map((e) => e.status)).toEqual(["completed", "completed", "in_progress"]);
          expect(last[0].content).toBe("Write the parser");
          expect(last[1].content).toBe("Add tests");
          // 0.100.0 shows an in-progress todo by its activeForm.
          expect(last[2].content).toMatch(/^(Update docs|Updating docs)$/);
        });
      });

      it("no conch run against this agent ended in an uncaught exception (stack trace on stderr)", async () => {
        await expectNoCrashes(agent, mode);
      });
    });
  });
}
