/**
 * conch -p against the real gemini-cli 0.61.0 (`gemini --acp`), for every gemini model script
 * (g1–g6) of ../shared/real-agents/scripts/gemini.
 *
 * gemini-cli fails `session/load` when the loading process starts in the UTC minute the session was
 * created in, or last saved in (and then loses the session), so every `--resume` waits for the next
 * minute after the run before it. The multi-prompt scenarios start together in `beforeAll` so
 * those waits overlap.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { conch, reportSkip, resultOf, shell, toolSummary, waitForNextUtcMinute } from "./support/real-agents.js";
import { describeModes, expectNoCrashes, lazyScenario } from "./support/scenario.js";

const agent = "gemini" as const;
const skip = reportSkip(agent);

describe.skipIf(skip)(`gemini${skip ? " (NOT INSTALLED: skipped)" : ""}`, () => {
  describeModes((mode) => {
    const g1 = lazyScenario(agent, mode, "gemini/g1.json", [conch("p1", "Say hello in two sentences.")]);

    const g2 = lazyScenario(
      agent,
      mode,
      "gemini/g2.json",
      [
        conch("p1", "List the files in this project.", { permissions: "approve-all" }),
        waitForNextUtcMinute(),
        conch("p2", "Delete the files.", { resumeFrom: "p1", permissions: "deny" }),
      ],
      { files: ["a.txt", "b.txt"] },
    );

    const g3 = lazyScenario(
      agent,
      mode,
      "gemini/g3.json",
      [
        conch("p1", "Rename the greeting to Howdy and add a test.", { permissions: "approve-all" }),
        shell(
          `cp hello.py "$OUT/extra-hello.py-after-p1" 2>/dev/null; cp test_hello.py "$OUT/extra-test_hello.py-after-p1" 2>/dev/null; true`,
        ),
        waitForNextUtcMinute(),
        conch("p2", "Add a NOTES.md file.", { resumeFrom: "p1", permissions: "approve-all" }),
        // gemini-cli 0.61.0 cannot session/load a session a second time (-32603 "No previous sessions
        // found for this project.", with its own client too), so p3 runs in a session of its own.
        conch("p3", "Show me hello.py."),
      ],
      { files: ["hello.py", "test_hello.py", "NOTES.md"] },
    );

    // gemini-cli can load a session only once (see g3), and cannot load one whose only turn was
    // cancelled (-32603, with its own client too), so p2 runs in a session of its own and p3 resumes p1.
    const g4 = lazyScenario(
      agent,
      mode,
      "gemini/g4.json",
      [
        conch("p1", "Run the slow build.", { permissions: "deny" }),
        // Ctrl-C as soon as the first chunk of the slowly streamed essay is shown.
        conch("p2", "Write a long essay.", { format: "stream-json", interruptWhen: "Chapter 1" }),
        waitForNextUtcMinute(),
        conch("p3", "Are you still there?", { resumeFrom: "p1" }),
      ],
      { files: ["CANCELLED_COMMAND_RAN"] },
    );

    const g5 = lazyScenario(agent, mode, "gemini/g5.json", [
      conch("p1", "Count the lines in notes.txt.", { permissions: "approve-all" }),
      waitForNextUtcMinute(),
      conch("p2", "What did you tell me before?", { resumeFrom: "p1" }),
    ]);

    // Print mode has no way to call session/set_mode or session/set_model, so g6's prompts 3–5 cannot
    // run as scripted; each prompt that print mode can send runs as its own session (no wait needed).
    const g6 = lazyScenario(agent, mode, "gemini/g6.json", [
      conch("about", "/about"),
      conch("plan", "Plan the release.", { permissions: "approve-all" }),
      conch("tests", "Run the tests.", { permissions: "approve-all" }),
      conch("yolo", "Run the tests.", { extraArgs: ["--mode", "yolo"] }),
      conch("model", "Which model are you?", { extraArgs: ["--model", "gemini-2.5-pro"] }),
      conch("planmode", "Create a file in plan mode.", { permissions: "approve-all", extraArgs: ["--mode", "plan"] }),
    ]);

    beforeAll(() => {
      for (const s of [g2, g3, g4, g5]) s.start();
    });

    describe("g1", () => {
      it("g1: `text` is the three streamed parts without the thoughts, stopReason end_turn, exit 0", async () => {
        const r = await g1();
        const res = resultOf(r, "p1");
        expect(res.text, r.describe("p1")).toBe("Hello from the fake Gemini model! This reply was streamed in three SSE chunks.");
        expect(res.stopReason).toBe("end_turn");
        expect(res.toolCalls).toEqual([]);
        expect(r.steps.p1.code).toBe(0);
      });
    });

    describe("g2", () => {
      it("g2 p1 approve-all: `ls -1 && echo shell-ok` is completed, the answer names a.txt and b.txt, exit 0", async () => {
        const r = await g2();
        const res = resultOf(r, "p1");
        expect(toolSummary(res), r.describe("p1")).toEqual([{ title: "ls -1 && echo shell-ok", kind: "execute", status: "completed" }]);
        expect(res.text).toContain("The project contains `a.txt` and `b.txt`.");
        expect(r.steps.p1.code).toBe(0);
      });

      it("g2 p2 --resume --permissions deny: the rm is shown `rejected` and in permissionsDenied, the model's answer follows, exit 5, files kept", async () => {
        const r = await g2();
        const res = resultOf(r, "p2");
        expect(r.steps.p2.code, r.describe("p2")).toBe(5);
        expect(res.exitCode).toBe(5);
        expect(toolSummary(res)).toEqual([{ title: "rm -f a.txt b.txt", kind: "execute", status: "rejected" }]);
        expect(res.permissionsDenied.map((d) => d.title)).toEqual(["rm -f a.txt b.txt"]);
        expect(res.text).toContain("Understood, I did not delete anything.");
        expect(r.files["a.txt"]).toBe("alpha\n");
        expect(r.files["b.txt"]).toBe("beta\n");
      });
    });

    describe("g3", () => {
      it("g3 p1 approve-all: replace and write_file are completed, exit 0", async () => {
        const r = await g3();
        const res = resultOf(r, "p1");
        expect(r.steps.p1.code, r.describe("p1")).toBe(0);
        expect(
          toolSummary(res).map((t) => [t.kind, t.status]),
          r.describe("p1"),
        ).toEqual([
          ["edit", "completed"],
          ["edit", "completed"],
        ]);
        expect(res.text).toContain('Done: hello.py now prints "Howdy, world" and test_hello.py checks it.');
      });

      it("g3 p1: the files written through conch's fs/write_text_file exist on disk (hello.py edited, new test_hello.py)", async () => {
        const r = await g3();
        expect(r.extras["hello.py-after-p1"], r.describe("p1")).toContain('print("Howdy, world")');
        expect(r.extras["test_hello.py-after-p1"], r.describe("p1")).toBe(
          'from hello import main\n\n\ndef test_main(capsys):\n    main()\n    assert capsys.readouterr().out == "Howdy, world\\n"\n',
        );
      });

      it("g3 p2 --resume approve-all: the new NOTES.md is written through conch (the missing file reads as empty), exit 0", async () => {
        const r = await g3();
        const res = resultOf(r, "p2");
        expect(r.steps.p2.code, r.describe("p2")).toBe(0);
        expect(
          toolSummary(res).map((t) => t.status),
          r.describe("p2"),
        ).toEqual(["completed"]);
        expect(r.files["NOTES.md"]).toBe("# Notes\n\nGreeting is now Howdy.\n");
      });

      it("g3 p3 (own session): read_file is completed, the answer describes hello.py, exit 0", async () => {
        const r = await g3();
        const res = resultOf(r, "p3");
        expect(
          toolSummary(res).map((t) => [t.kind, t.status]),
          r.describe("p3"),
        ).toEqual([["read", "completed"]]);
        expect(res.text).toBe("hello.py defines main() which prints the greeting.");
        expect(r.steps.p3.code).toBe(0);
      });
    });

    describe("g4", () => {
      // Print mode cannot leave the permission request open (it answers by policy at once), so p1 is
      // refused by `--permissions deny`; cancelling with the request open is a TUI case.
      it("g4 p1 --permissions deny: the build command is shown `rejected`, never ran, exit 5", async () => {
        const r = await g4();
        const res = resultOf(r, "p1");
        expect(r.steps.p1.code, r.describe("p1")).toBe(5);
        expect(toolSummary(res)).toEqual([{ title: "touch CANCELLED_COMMAND_RAN && sleep 1", kind: "execute", status: "rejected" }]);
        expect(res.permissionsDenied).toHaveLength(1);
        expect(r.files["CANCELLED_COMMAND_RAN"]).toBeNull();
      });

      it("g4 p2, Ctrl-C after the first chunk: the turn is cancelled at once, nothing after the cancel is shown, exit 130", async () => {
        const r = await g4();
        const s = r.steps.p2;
        const res = resultOf(r, "p2");
        expect(s.interrupted, r.describe("p2")).toBe(true);
        expect(s.code, r.describe("p2")).toBe(130);
        expect(res.stopReason).toBe("cancelled");
        expect(res.text).toContain("Chapter 1.");
        expect(res.text).not.toContain("UNEXPECTED: the stream was not cancelled.");
        expect(res.text).not.toContain("Chapter 4.");
      });

      it("g4 p3 --resume of p1's session (refused turn): it loads and answers, exit 0", async () => {
        const r = await g4();
        const res = resultOf(r, "p3");
        expect(res.text, r.describe("p3")).toBe("Yes, still here after two cancelled turns.");
        expect(res.stopReason).toBe("end_turn");
        expect(r.steps.p3.code).toBe(0);
      });
    });

    describe("g5", () => {
      it('g5 p1 approve-all: `wc -l < notes.txt` is completed, "notes.txt has 3 lines.", exit 0', async () => {
        const r = await g5();
        const res = resultOf(r, "p1");
        expect(toolSummary(res), r.describe("p1")).toEqual([{ title: "wc -l < notes.txt", kind: "execute", status: "completed" }]);
        expect(res.text).toContain("notes.txt has 3 lines.");
        expect(r.steps.p1.code).toBe(0);
      });

      it("g5 p2 --resume in the next minute (session/load, replay after the response): only the new answer, no replayed tool calls, exit 0", async () => {
        const r = await g5();
        const res = resultOf(r, "p2");
        expect(res.text, r.describe("p2")).toBe("Earlier I told you that notes.txt has 3 lines.");
        expect(res.toolCalls).toEqual([]);
        expect(res.sessionId).toBe(resultOf(r, "p1").sessionId);
        expect(r.steps.p2.code).toBe(0);
      });
    });

    describe("g6", () => {
      it("g6 /about: answered by gemini-cli itself (Gemini CLI Info, version 0.61.0), exit 0", async () => {
        const r = await g6();
        const res = resultOf(r, "about");
        expect(res.text, r.describe("about")).toContain("Gemini CLI Info");
        expect(res.text).toContain("Version: 0.61.0");
        expect(r.steps.about.code).toBe(0);
      });

      it('g6 "Plan the release." approve-all: write_todos ("Set 3 todo(s)") and update_topic are completed, exit 0', async () => {
        const r = await g6();
        const res = resultOf(r, "plan");
        expect(r.steps.plan.code, r.describe("plan")).toBe(0);
        expect(res.toolCalls.map((t) => t.status)).toEqual(["completed", "completed"]);
        expect(res.toolCalls[0].title).toBe("Set 3 todo(s)");
        expect(res.toolCalls[1].kind).toBe("think");
        expect(res.text).toContain("The plan has three steps; the changelog is in progress.");
      });

      it('g6 "Run the tests." approve-all (default mode: permission asked and granted): `echo tests-passed` completed, exit 0', async () => {
        const r = await g6();
        const res = resultOf(r, "tests");
        expect(toolSummary(res), r.describe("tests")).toEqual([{ title: "echo tests-passed", kind: "execute", status: "completed" }]);
        expect(res.text).toBe("Tests passed.");
        expect(r.steps.tests.code).toBe(0);
      });

      it('g6 --mode yolo: "Run the tests." runs without any permission request (even with the default deny policy), exit 0', async () => {
        const r = await g6();
        const res = resultOf(r, "yolo");
        expect(r.steps.yolo.code, r.describe("yolo")).toBe(0);
        expect(res.permissionsDenied).toEqual([]);
        expect(res.text).toBe("Tests passed.");
      });

      it("g6 --model gemini-2.5-pro: the request goes to that model, exit 0", async () => {
        const r = await g6();
        const res = resultOf(r, "model");
        expect(r.steps.model.code, r.describe("model")).toBe(0);
        expect(res.text).toBe("This request was sent to gemini-2.5-pro.");
      });

      it("g6 --mode plan: the write is refused by plan mode, shown failed, nothing written, exit 0", async () => {
        const r = await g6();
        const res = resultOf(r, "planmode");
        expect(r.steps.planmode.code, r.describe("planmode")).toBe(0);
        expect(res.toolCalls.map((t) => t.status)).toEqual(["failed"]);
        expect(res.text).toContain("Plan mode: no files were written.");
      });
    });

    it("no conch run against gemini ended in an uncaught exception (stack trace on stderr)", async () => {
      await expectNoCrashes(agent, mode);
    });
  });
});
