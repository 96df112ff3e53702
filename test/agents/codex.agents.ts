/**
 * conch -p against the real codex-acp 0.16.0 (`codex`) and 2.6.0 (`codex-next`, the App Server
 * rewrite), for every codex model script (c1–c6) of ../shared/real-agents/scripts/codex; the
 * codex-next-only scripts are in codex-next.agents.ts, the TUI runs in codex-tui.agents.ts.
 * codex's rules match the turn number, not the prompt text.
 */
import { describe, expect, it } from "vitest";
import { conch, processCheck, reportSkip, resultOf, toolSummary, updatesOf, type AgentName } from "./support/real-agents.js";
import { describeModes, expectNoCrashes, lazyScenario } from "./support/scenario.js";

for (const agent of ["codex", "codex-next"] as const satisfies readonly AgentName[]) {
  const skip = reportSkip(agent);
  // codex 2.x goes on running a command after a cancel; conch stops it when it stops the agent.
  const cancelledExec = agent === "codex" ? "cancelled" : "ended_with_agent";

  describe.skipIf(skip)(`${agent}${skip ? " (NOT INSTALLED: skipped)" : ""}`, () => {
    describeModes((mode) => {
      describe("c1", () => {
        const run = lazyScenario(agent, mode, "codex/c1.json", [conch("p1", "Say hello.")]);

        it("c1: `text` is the streamed answer without the reasoning summary, stopReason end_turn, exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(res.text, r.describe("p1")).toBe("Hello from the fake model! This reply is streamed in several chunks.");
          expect(res.stopReason).toBe("end_turn");
          expect(res.toolCalls).toEqual([]);
          expect(r.steps.p1.code).toBe(0);
        });
      });

      describe("c2", () => {
        const run = lazyScenario(agent, mode, "codex/c2.json", [
          conch("p1", "Run echo hello in the shell.", { permissions: "approve-all" }),
        ]);

        it('c2 approve-all: the exec shows as `echo hello` completed, "The command printed: hello", exit 0', async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(toolSummary(res), r.describe("p1")).toEqual([{ title: "echo hello", kind: "execute", status: "completed" }]);
          expect(res.text).toBe("The command printed: hello");
          expect(res.permissionsDenied).toEqual([]);
          expect(r.steps.p1.code).toBe(0);
        });
      });

      describe("c3", () => {
        const run = lazyScenario(
          agent,
          mode,
          "codex/c3.json",
          [conch("p1", "Change 'hello world' to 'hello ACP' in greeting.txt and add NOTES.md.", { format: "stream-json" })],
          {
            files: ["greeting.txt", "NOTES.md"],
          },
        );

        it("c3: the patch is one edit tool call, completed, with both diffs streamed; exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(r.steps.p1.code, r.describe("p1")).toBe(0);
          expect(res.toolCalls).toHaveLength(1);
          expect(res.toolCalls[0]).toMatchObject({ kind: "edit", status: "completed" });
          expect(res.text).toContain("Done: greeting.txt updated and NOTES.md added.");
          const diffs = updatesOf(r.steps.p1)
            .flatMap((u) => (Array.isArray(u.update.content) ? u.update.content : []))
            .filter((c: any) => c?.type === "diff");
          expect(diffs.some((d: any) => d.path.endsWith("greeting.txt") && d.newText.includes("hello ACP"))).toBe(true);
          expect(diffs.some((d: any) => d.path.endsWith("NOTES.md") && d.newText.includes("created by apply_patch"))).toBe(true);
        });

        it("c3: greeting.txt is changed and NOTES.md created on disk", async () => {
          const r = await run();
          expect(r.files["greeting.txt"], r.describe()).toBe("line one\nhello ACP\nline three\n");
          expect(r.files["NOTES.md"]).toBe("# Notes\ncreated by apply_patch\n");
        });
      });

      describe("c4", () => {
        const run = lazyScenario(agent, mode, "codex/c4.json", [
          conch("p1", "Run the slow command and wait for it.", { format: "stream-json" }),
        ]);

        it('c4 stream-json: live terminal output "tick" arrives before the command\'s completion event', async () => {
          const r = await run();
          const ups = updatesOf(r.steps.p1 ?? ({ events: [] } as never));
          const tick = ups.find(
            (u) => u.update.toolCallId === "call_c4_exec" && String(u.update._meta?.terminal_output?.data ?? "").includes("tick"),
          );
          const done = ups.find((u) => u.update.toolCallId === "call_c4_exec" && u.update.status === "completed");
          expect(tick, r.describe("p1")).toBeDefined();
          expect(done).toBeDefined();
          expect(tick!.index).toBeLessThan(done!.index);
        });

        it('c4: the command is shown completed, "The command finished: tick, done.", exit 0', async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(toolSummary(res), r.describe("p1")).toEqual([
            { title: "sleep 1; echo tick; sleep 6; echo done", kind: "execute", status: "completed" },
          ]);
          expect(res.text).toContain("The command finished: tick, done.");
          expect(res.stopReason).toBe("end_turn");
          expect(r.steps.p1.code).toBe(0);
        });
      });

      describe("c5", () => {
        const run = lazyScenario(agent, mode, "codex/c5.json", [
          conch("p1", "Run the slow command and wait for it."),
          conch("p2", "Are you still there?", { resumeFrom: "p1" }),
        ]);

        it("c5 p1: the slow command completes, exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(
            res.toolCalls.map((t) => t.status),
            r.describe("p1"),
          ).toEqual(["completed"]);
          expect(res.text).toContain("The command finished: tick, done.");
          expect(r.steps.p1.code).toBe(0);
        });

        it("c5 p2 --resume (session/load in a new codex process): the new answer only, no replayed tool calls, same session, exit 0", async () => {
          const r = await run();
          const res = resultOf(r, "p2");
          expect(res.text, r.describe("p2")).toBe("Resumed: I still remember the slow command.");
          expect(res.toolCalls).toEqual([]);
          expect(res.sessionId).toBe(resultOf(r, "p1").sessionId);
          expect(r.steps.p2.code).toBe(0);
        });
      });

      describe("c6", () => {
        // The timeouts are the cancels: p1 after its first chunks (the essay then hangs), p2 while
        // `sleep 30` runs. Each model request waits the latency first, twice before either point.
        const lag = (2 * mode.latencyMs) / 1000;
        const [t1, t2] = [6 + lag, 8 + lag];
        const run = lazyScenario(agent, mode, "codex/c6.json", [
          conch("p1", "Write me a long essay.", { timeout: t1 }),
          conch("p2", "Run sleep 30.", { resumeFrom: "p1", timeout: t2 }),
          processCheck("sleep-after-p2", "echo start; sleep 30; echo never", "sleep 30"),
          conch("p3", "Never mind.", { resumeFrom: "p1" }),
        ]);

        it(`c6 p1 --timeout ${t1} (the turn never ends): cancelled, the text streamed so far is kept, exit 3`, async () => {
          const r = await run();
          const res = resultOf(r, "p1");
          expect(r.steps.p1.code, r.describe("p1")).toBe(3);
          expect(res.exitCode).toBe(3);
          expect(res.stopReason).toBe("cancelled");
          expect(res.text).toMatch(/^This is a very long answer/);
        });

        it(`c6 p2 --resume --timeout ${t2} while the command runs: cancelled, the exec shown \`${cancelledExec}\`, exit 3, no stray \`sleep 30\` left`, async () => {
          const r = await run();
          const res = resultOf(r, "p2");
          expect(r.steps.p2.code, r.describe("p2")).toBe(3);
          expect(res.stopReason).toBe("cancelled");
          expect(toolSummary(res)).toEqual([{ title: "echo start; sleep 30; echo never", kind: "execute", status: cancelledExec }]);
          expect(r.extras["sleep-after-p2"] ?? "").toBe("");
        });

        it('c6 p3 --resume: the agent is still usable, "OK, I stopped. What next?", exit 0', async () => {
          const r = await run();
          const res = resultOf(r, "p3");
          expect(res.text, r.describe("p3")).toBe("OK, I stopped. What next?");
          expect(res.stopReason).toBe("end_turn");
          expect(r.steps.p3.code).toBe(0);
        });
      });

      it(`no conch run against ${agent} ended in an uncaught exception (stack trace on stderr)`, async () => {
        await expectNoCrashes(agent, mode);
      });
    });
  });
}
