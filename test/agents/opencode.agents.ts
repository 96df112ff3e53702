/**
 * conch -p against the real opencode 1.18.33 (`opencode acp`), for every opencode model script
 * (a–h) of ../shared/real-agents/scripts/opencode. opencode's rules match the latest user text and
 * the number of tool results after it. It sends nothing after a prompt response, has no `modes`
 * (its modes are the config option of category `mode`) and never uses terminals.
 */
import { describe, expect, it } from "vitest";
import {
  CONCH,
  conch,
  processCheck,
  reportSkip,
  resultOf,
  shell,
  sq,
  toolSummary,
  linesOf,
  updatesOf,
  type StepOutput,
} from "./support/real-agents.js";
import { describeModes, expectNoCrashes, lazyScenario } from "./support/scenario.js";

const agent = "opencode" as const;
const skip = reportSkip(agent);

/** The live `tool_call` / `tool_call_update`s of one call in a stream-json run, in order. */
function callUpdates(step: StepOutput, title: string): Record<string, any>[] {
  const ups = updatesOf(step).filter(
    (u) => !u.history && (u.update.sessionUpdate === "tool_call" || u.update.sessionUpdate === "tool_call_update"),
  );
  const id = ups.find((u) => u.update.title === title)?.update.toolCallId;
  return ups.filter((u) => u.update.toolCallId === id).map((u) => u.update);
}

/** The text of an update's `content` blocks (undefined when it carries none). */
function contentText(update: Record<string, any>): string | undefined {
  if (!Array.isArray(update.content)) return undefined;
  return update.content
    .filter((c: any) => c?.type === "content" && c.content?.type === "text")
    .map((c: any) => String(c.content.text))
    .join("");
}

/** The client's requests on the wire, by method, with their params. */
function requests(step: StepOutput, method: string): Record<string, any>[] {
  return step.wire.filter((l) => l.dir === "client" && l.msg.method === method).map((l) => l.msg.params);
}

/** The wire position of the first client request with this method (-1 when none). */
function requestIndex(step: StepOutput, method: string): number {
  return step.wire.findIndex((l) => l.dir === "client" && l.msg.method === method);
}

/**
 * What the session's config option `id` is set to, as the agent last said on the wire: in a
 * `config_option_update`, or in its answer to `session/set_config_option` (opencode answers there).
 */
function lastConfigValue(step: StepOutput, id: string): unknown {
  let options: { id: string; currentValue: unknown }[] | undefined;
  for (const { dir, msg } of step.wire) {
    if (dir !== "agent") continue;
    const update = msg.method === "session/update" ? msg.params?.update : undefined;
    options = (update?.sessionUpdate === "config_option_update" ? update.configOptions : undefined) ?? msg.result?.configOptions ?? options;
  }
  return options?.find((o) => o.id === id)?.currentValue;
}

describe.skipIf(skip)(`opencode${skip ? " (NOT INSTALLED: skipped)" : ""}`, () => {
  describeModes((mode) => {
    describe("a-text", () => {
      const run = lazyScenario(agent, mode, "opencode/a-text.json", [
        conch("json", "Say hello in two sentences.", { format: "json" }),
        conch("text", "Say hello in two sentences.", { format: "text" }),
      ]);

      it("a json: `text` is the two sentences without the reasoning, stopReason end_turn, no tool calls, exit 0", async () => {
        const r = await run();
        const res = resultOf(r, "json");
        expect(res.text, r.describe("json")).toBe("Hello! I am a fake model answering offline.\nThis is the second sentence.");
        expect(res.stopReason).toBe("end_turn");
        expect(res.toolCalls).toEqual([]);
        expect(res.error).toBeNull();
        expect(res.agent).toBe("OpenCode");
        expect(res.sessionId).toMatch(/^ses_/);
        expect(r.steps.json.code).toBe(0);
      });

      it("a text: stdout is exactly the answer and a newline, exit 0", async () => {
        const r = await run();
        expect(r.steps.text.stdout, r.describe("text")).toBe("Hello! I am a fake model answering offline.\nThis is the second sentence.\n");
        expect(r.steps.text.code).toBe(0);
      });
    });

    describe("b-shell-permission", () => {
      // The project's opencode.json says `bash: ask`; refused first, then allowed, in two sessions.
      const run = lazyScenario(
        agent,
        mode,
        "opencode/b-shell-permission.json",
        [
          conch("deny", "Run echo hello in the shell.", { format: "stream-json", permissions: "deny" }),
          shell(`if [ -e created.txt ]; then echo yes; else echo no; fi >"$OUT/extra-created-after-deny"`),
          conch("allow", "Run echo hello in the shell.", { format: "stream-json", permissions: "approve-all" }),
        ],
        { files: ["created.txt"] },
      );

      it("b --permissions deny: the command is refused, listed in permissionsDenied, never ran, the turn ends there, exit 5", async () => {
        const r = await run();
        const res = resultOf(r, "deny");
        expect(r.steps.deny.code, r.describe("deny")).toBe(5);
        expect(res.exitCode).toBe(5);
        // opencode itself reports the refused call `failed` (as claude does); conch may show it as `rejected`.
        const tools = toolSummary(res);
        expect(tools.map((t) => [t.title, t.kind])).toEqual([["touch created.txt && echo hello && echo shell-ok", "execute"]]);
        expect(["rejected", "failed"]).toContain(tools[0].status);
        expect(res.permissionsDenied.map((d) => d.title)).toEqual(["touch created.txt && echo hello && echo shell-ok"]);
        expect(res.stopReason).toBe("end_turn");
        expect(res.text).toBe("I'll run it.");
        expect(r.extras["created-after-deny"]?.trim()).toBe("no");
      });

      it('b approve-all: the permission is granted by policy, the command completes, its output "hello\\nshell-ok\\n" reaches the user, exit 0', async () => {
        const r = await run();
        const s = r.steps.allow;
        const res = resultOf(r, "allow");
        expect(s.code, r.describe("allow")).toBe(0);
        const answered = linesOf(s, "permission", "answered");
        expect(answered).toHaveLength(1);
        expect(answered[0]).toMatchObject({ source: "policy", outcome: "selected" });
        expect(toolSummary(res)).toEqual([
          { title: "touch created.txt && echo hello && echo shell-ok", kind: "execute", status: "completed" },
        ]);
        const done = callUpdates(s, "touch created.txt && echo hello && echo shell-ok").find((u) => u.status === "completed");
        expect(done && contentText(done), r.describe("allow")).toBe("hello\nshell-ok\n");
        expect(res.text).toContain("I'll run it.");
        expect(res.text).toContain("The command printed: hello\nshell-ok");
        expect(res.permissionsDenied).toEqual([]);
        expect(r.files["created.txt"]).toBe("");
      });
    });

    describe("c-edit-write", () => {
      // The project's opencode.json says `edit: ask`; opencode writes through conch's fs/write_text_file.
      const run = lazyScenario(
        agent,
        mode,
        "opencode/c-edit-write.json",
        [
          conch("p1", "Change 'hello world' to 'hello ACP' in hello.txt and add NOTES.md.", {
            format: "stream-json",
            permissions: "approve-all",
          }),
        ],
        { files: ["hello.txt", "NOTES.md"] },
      );

      it("c approve-all: read, edit and write are completed (titled with their files), the answer follows, exit 0", async () => {
        const r = await run();
        const res = resultOf(r, "p1");
        expect(r.steps.p1.code, r.describe("p1")).toBe(0);
        expect(res.stopReason).toBe("end_turn");
        const tools = toolSummary(res);
        expect(tools.map((t) => [t.kind, t.status])).toEqual([
          ["read", "completed"],
          ["edit", "completed"],
          ["edit", "completed"],
        ]);
        expect(tools[0].title).toMatch(/hello\.txt$/);
        expect(tools[1].title).toMatch(/hello\.txt$/);
        expect(tools[2].title).toMatch(/NOTES\.md$/);
        expect(res.text).toContain("Let me look at the file first.");
        expect(res.text).toContain("Done: hello.txt now says 'hello ACP' and NOTES.md was added.");
        expect(res.permissionsDenied).toEqual([]);
      });

      it("c: both permission requests show the whole-file diff and are granted by policy; the completed edit shows its fragment", async () => {
        const r = await run();
        const s = r.steps.p1;
        const asked = linesOf(s, "permission", "asked").map((e) => e.content?.find((c: any) => c?.type === "diff"));
        expect(asked, r.describe("p1")).toHaveLength(2);
        expect(asked[0]).toMatchObject({ oldText: "first line\nhello world\nlast line\n", newText: "first line\nhello ACP\nlast line\n" });
        expect(asked[0].path).toMatch(/\/hello\.txt$/);
        expect(asked[1]).toMatchObject({ newText: "# Notes\n\nThe greeting now says hello ACP.\n" });
        expect(asked[1].path).toMatch(/\/NOTES\.md$/);
        expect(linesOf(s, "permission", "answered").map((e) => e.source)).toEqual(["policy", "policy"]);
        const editDone = updatesOf(s).find(
          (u) =>
            u.update.status === "completed" && Array.isArray(u.update.content) && u.update.content.some((c: any) => c?.type === "diff"),
        );
        expect(editDone?.update.content.find((c: any) => c?.type === "diff")).toMatchObject({
          oldText: "hello world",
          newText: "hello ACP",
        });
      });

      it("c: hello.txt is edited and NOTES.md written on disk (through conch's fs/write_text_file)", async () => {
        const r = await run();
        expect(r.files["hello.txt"], r.describe()).toBe("first line\nhello ACP\nlast line\n");
        expect(r.files["NOTES.md"]).toBe("# Notes\n\nThe greeting now says hello ACP.\n");
      });
    });

    describe("d-long-shell", () => {
      const command = "for i in 1 2 3 4 5; do echo line $i; sleep 1; done; echo slow-done";
      const run = lazyScenario(agent, mode, "opencode/d-long-shell.json", [
        conch("p1", "Run the slow command and wait for it.", { format: "stream-json" }),
      ]);

      it("d: the output streams while the command runs (each update holds the whole output so far), then the call completes with all of it", async () => {
        const r = await run();
        const ups = callUpdates(r.steps.p1, command);
        const doneAt = ups.findIndex((u) => u.status === "completed");
        expect(doneAt, r.describe("p1")).toBeGreaterThan(0);
        expect(contentText(ups[doneAt])).toBe("line 1\nline 2\nline 3\nline 4\nline 5\nslow-done\n");
        const partial = ups
          .slice(0, doneAt)
          .map(contentText)
          .filter((t): t is string => !!t);
        expect(partial.length, r.describe("p1")).toBeGreaterThan(0);
        expect(partial[0].startsWith("line 1\n")).toBe(true);
        expect(partial[0]).not.toContain("slow-done");
        // Each update repeats what came before it: the client must replace, not append.
        for (let i = 1; i < partial.length; i++) expect(partial[i].startsWith(partial[i - 1])).toBe(true);
      });

      it("d: the command is shown completed, the answer follows it, stopReason end_turn, exit 0", async () => {
        const r = await run();
        const res = resultOf(r, "p1");
        expect(toolSummary(res), r.describe("p1")).toEqual([{ title: command, kind: "execute", status: "completed" }]);
        expect(res.text).toContain("Starting the slow command.");
        expect(res.text.endsWith("The slow command finished.")).toBe(true);
        expect(res.stopReason).toBe("end_turn");
        expect(r.steps.p1.code).toBe(0);
      });
    });

    describe("e-cancel", () => {
      const loop = "for i in $(seq 1 30); do sleep 1; done; echo woke-up";
      const run = lazyScenario(agent, mode, "opencode/e-cancel.json", [
        // Ctrl-C a second after the essay's first chunk (it streams for 12 s). The marker is stream-json's
        // text line: the trace is searched too, and its prompt holds a bare `"type":"text"` at once.
        conch("p1", "Write me a long essay.", { format: "stream-json", interruptWhen: '"type":"text","v":1', interruptDelayS: 1 }),
        // Ctrl-C a second after the 30 s loop started (its real title arrives as it starts).
        conch("p2", "Run sleep 30.", { resumeFrom: "p1", format: "stream-json", interruptWhen: "seq 1 30", interruptDelayS: 1 }),
        processCheck("loop-after-p2", loop),
        conch("p3", "Are you still there?", { resumeFrom: "p1" }),
      ]);

      it("e p1, Ctrl-C mid-essay: cancelled at once, the text so far is kept and nothing after it, exit 130", async () => {
        const r = await run();
        const s = r.steps.p1;
        const res = resultOf(r, "p1");
        expect(s.interrupted, r.describe("p1")).toBe(true);
        expect(s.code, r.describe("p1")).toBe(130);
        expect(res.exitCode).toBe(130);
        expect(res.stopReason).toBe("cancelled");
        expect(res.text).toMatch(/^Essay sent/);
        expect(res.text).not.toContain("Essay sentence number 20 keeps going.");
      });

      it('e p2 --resume, Ctrl-C while the loop runs: cancelled, the call ends with opencode\'s "User aborted the command", nothing left running, exit 130', async () => {
        const r = await run();
        const s = r.steps.p2;
        const res = resultOf(r, "p2");
        expect(s.interrupted, r.describe("p2")).toBe(true);
        expect(s.code, r.describe("p2")).toBe(130);
        expect(res.stopReason).toBe("cancelled");
        expect(res.text).toContain("Sleeping now.");
        expect(res.text).not.toContain("The sleep ended");
        // opencode reports the aborted call `completed`; conch shows the agent's word.
        expect(toolSummary(res)).toEqual([{ title: loop, kind: "execute", status: "completed" }]);
        const last = callUpdates(s, loop).at(-1)!;
        expect(contentText(last), r.describe("p2")).toContain("User aborted the command");
        expect(r.extras["loop-after-p2"] ?? "").toBe("");
      });

      it('e p3 --resume: the session still works, "Yes, still here.", exit 0', async () => {
        const r = await run();
        const res = resultOf(r, "p3");
        expect(res.text, r.describe("p3")).toBe("Yes, still here.");
        expect(res.stopReason).toBe("end_turn");
        expect(res.sessionId).toBe(resultOf(r, "p1").sessionId);
        expect(r.steps.p3.code).toBe(0);
      });
    });

    describe("f-load", () => {
      const run = lazyScenario(agent, mode, "opencode/f-load.json", [
        conch("p1", "Run echo hello in the shell."),
        conch("p2", "What did you run before?", { resumeFrom: "p1", format: "stream-json", trace: true }),
        shell(`node ${sq(CONCH)} sessions --json >"$OUT/extra-sessions" 2>&1 </dev/null`),
      ]);

      it('f p1: `echo hello` runs without a permission request and completes, "It printed hello.", exit 0', async () => {
        const r = await run();
        const res = resultOf(r, "p1");
        expect(toolSummary(res), r.describe("p1")).toEqual([{ title: "echo hello", kind: "execute", status: "completed" }]);
        expect(res.text).toContain("Running it now.");
        expect(res.text).toContain("It printed hello.");
        expect(res.permissionsDenied).toEqual([]);
        expect(r.steps.p1.code).toBe(0);
      });

      it("f p2 --resume (session/load in a new opencode process): the model got the history; only the new answer, no replayed tool call, exit 0", async () => {
        const r = await run();
        const s = r.steps.p2;
        const res = resultOf(r, "p2");
        const sid = resultOf(r, "p1").sessionId;
        expect(res.text, r.describe("p2")).toBe("Before, I ran `echo hello` and it printed hello (history present).");
        expect(res.toolCalls).toEqual([]);
        expect(res.sessionId).toBe(sid);
        expect(res.stopReason).toBe("end_turn");
        expect(s.code).toBe(0);
        expect(
          requests(s, "session/load").map((p) => p.sessionId),
          r.describe("p2"),
        ).toEqual([sid]);
        // The replay (before the load response) is history: stream-json shows none of it.
        expect(linesOf(s, "tool_call")).toEqual([]);
      });

      it("f: `conch sessions --json` lists the session once, in the project directory", async () => {
        const r = await run();
        const sid = resultOf(r, "p1").sessionId;
        const list = JSON.parse(r.extras.sessions ?? "null") as { id: string; cwd: string }[];
        expect(list, r.extras.sessions).toEqual(expect.arrayContaining([expect.objectContaining({ id: sid })]));
        expect(list.filter((s) => s.id === sid)).toHaveLength(1);
        expect(list.find((s) => s.id === sid)!.cwd).toMatch(/\/project$/);
      });
    });

    describe("g-modes-todos-model", () => {
      const run = lazyScenario(
        agent,
        mode,
        "opencode/g-modes-todos-model.json",
        [
          conch("p1", "Plan the work.", { format: "stream-json" }),
          // approve-all: only plan mode may stop the write.
          conch("p2", "Create notes.txt in plan mode.", {
            resumeFrom: "p1",
            format: "stream-json",
            permissions: "approve-all",
            trace: true,
            extraArgs: ["--mode", "plan"],
          }),
          conch("p3", "Which model are you?", {
            resumeFrom: "p1",
            trace: true,
            extraArgs: ["--mode", "build", "--model", "fake/fake-model-2"],
          }),
          conch("p4", "/review", { resumeFrom: "p1", format: "stream-json" }),
        ],
        { files: ["notes.txt"] },
      );

      it("g p1: todowrite is the agent's plan (a `plan` line with the list), not a tool call with the list as JSON text, exit 0", async () => {
        const r = await run();
        const res = resultOf(r, "p1");
        expect(r.steps.p1.code, r.describe("p1")).toBe(0);
        // On the wire it is a tool call ("todowrite", then "2 todos") whose result is the list as JSON.
        expect(callUpdates(r.steps.p1, "todowrite").length, r.describe("p1")).toBeGreaterThan(0);
        expect(toolSummary(res)).toEqual([]);
        expect(res.text).toBe("The plan has three steps.");
        expect(linesOf(r.steps.p1, "plan").at(-1)?.entries).toEqual([
          { content: "Read the code", status: "completed", priority: "high" },
          { content: "Write the fix", status: "in_progress", priority: "high" },
          { content: "Run the tests", status: "pending", priority: "medium" },
        ]);
      });

      it("g p2 --resume --mode plan: conch switches the `mode` config option (session/set_config_option before the prompt; opencode has no modes)", async () => {
        const r = await run();
        const s = r.steps.p2;
        expect(requests(s, "session/set_config_option"), r.describe("p2")).toEqual([
          expect.objectContaining({ configId: "mode", value: "plan" }),
        ]);
        expect(requests(s, "session/set_mode")).toEqual([]);
        expect(requestIndex(s, "session/set_config_option")).toBeLessThan(requestIndex(s, "session/prompt"));
        expect(lastConfigValue(s, "mode")).toBe("plan");
      });

      it("g p2: the write fails in plan mode at once (no permission request, even with approve-all), nothing written, exit 0", async () => {
        const r = await run();
        const s = r.steps.p2;
        const res = resultOf(r, "p2");
        expect(s.code, r.describe("p2")).toBe(0);
        expect(toolSummary(res)).toEqual([{ title: "write", kind: "edit", status: "failed" }]);
        expect(linesOf(s, "permission", "asked")).toEqual([]);
        expect(res.text).toMatch(/^Write result: The user has specified a rule which prevents you from using this specific tool call\./);
        expect(r.files["notes.txt"]).toBeNull();
      });

      it("g p3 --resume --mode build --model fake/fake-model-2: both config options are set, the request goes to fake-model-2 (context 64000), exit 0", async () => {
        const r = await run();
        const s = r.steps.p3;
        const res = resultOf(r, "p3");
        expect(s.code, r.describe("p3")).toBe(0);
        expect(requests(s, "session/set_config_option").map((p) => [p.configId, p.value])).toEqual([
          ["mode", "build"],
          ["model", "fake/fake-model-2"],
        ]);
        expect(res.text).toBe("I am fake-model-2.");
        expect(res.context).toMatchObject({ size: 64000 });
      });

      it('g p4 --resume "/review": the subagent runs as a `task` tool call (kind think), completed, its answer follows, exit 0', async () => {
        const r = await run();
        const res = resultOf(r, "p4");
        expect(r.steps.p4.code, r.describe("p4")).toBe(0);
        expect(toolSummary(res)).toEqual([
          { title: "review changes [commit|branch|pr], defaults to uncommitted", kind: "think", status: "completed" },
        ]);
        expect(res.text).toMatch(/^Review: nothing to review/);
        expect(res.stopReason).toBe("end_turn");
      });
    });

    describe("h-markdown-output", () => {
      const command = "printf 'pattern: *.md and *.txt\\nfile: __init__.py\\n'; ls";
      const output = "pattern: *.md and *.txt\nfile: __init__.py\na_b_c.txt\nnotes*.md\n";
      const run = lazyScenario(agent, mode, "opencode/h-markdown-output.json", [
        conch("stream", "Show the glob output.", { format: "stream-json" }),
        conch("text", "Show the glob output.", { format: "text" }),
      ]);

      it("h stream-json: the tool's output reaches the user verbatim (`*.txt`, `__init__.py`) in content and rawOutput, exit 0", async () => {
        const r = await run();
        const s = r.steps.stream;
        expect(s.code, r.describe("stream")).toBe(0);
        const done = callUpdates(s, command).find((u) => u.status === "completed");
        expect(done, r.describe("stream")).toBeDefined();
        expect(contentText(done!)).toBe(output);
        expect(done!.rawOutput?.output).toBe(output);
        expect(toolSummary(resultOf(r, "stream"))).toEqual([{ title: command, kind: "execute", status: "completed" }]);
        expect(resultOf(r, "stream").text).toBe("Done.");
      });

      it("h text: the tool line on stderr shows the command verbatim, stdout is the answer, exit 0", async () => {
        const r = await run();
        const s = r.steps.text;
        expect(s.code, r.describe("text")).toBe(0);
        expect(s.stderr).toContain(`[tool] ${command} (execute): completed`);
        expect(s.stdout).toBe("Done.\n");
      });
    });

    it("no conch run against opencode ended in an uncaught exception (stack trace on stderr)", async () => {
      await expectNoCrashes(agent, mode);
    });
  });
});
