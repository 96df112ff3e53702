/**
 * What only codex-acp 2.x (`codex-next`) shows: a command that outlives its turn
 * (../shared/real-agents/scripts/codex-next/c5-unfinished), and an ACP registry id that starts the
 * kit's installed adapter with no network (test/fixtures/registry/kit-registry.json).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentsHome, CONCH, conch, processCheck, reportSkip, resultOf, ROOT, shell, sq, toolSummary } from "./support/real-agents.js";
import { describeModes, expectNoCrashes, lazyScenario } from "./support/scenario.js";

const agent = "codex-next" as const;
const skip = reportSkip(agent);
const SLOW = "sleep 1; echo tick; sleep 6; echo done";
const KIT_REGISTRY = path.join(ROOT, "test/fixtures/registry/kit-registry.json");

/** `conch --agent kit-codex-acp -p …` with the test registry and the kit's installed adapter first on PATH. */
function registryRun(name: string, prompt: string, timeoutS: number) {
  const bin = path.join(agentsHome(), agent, "node_modules/.bin");
  const args = `--agent kit-codex-acp -p ${sq(prompt)} --output-format json --timeout ${timeoutS} --trace "$OUT/${name}.trace"`;
  return shell(
    [
      `echo ${sq(`${name}: conch ${args}`)} >>"$OUT/commands"`,
      `CONCH_REGISTRY=${sq(KIT_REGISTRY)} PATH=${sq(bin)}:"$PATH" node ${sq(CONCH)} ${args} >"$OUT/${name}.out" 2>"$OUT/${name}.err" </dev/null; echo $? >"$OUT/${name}.code"`,
    ].join("\n"),
  );
}

describe.skipIf(skip)(`codex-next${skip ? " (NOT INSTALLED: skipped)" : ""}`, () => {
  describeModes((mode) => {
    describe("c5-unfinished", () => {
      const run = lazyScenario(agent, mode, "codex-next/c5-unfinished.json", [
        conch("p1", "Start the slow command and don't wait for it.", { trace: true }),
        processCheck("slow-after-p1", SLOW),
        conch("p2", "Are you still there?", { resumeFrom: "p1" }),
      ]);

      it("c5-unfinished p1: the answer ends the run; the command it left running ended with the agent (no exit status), never `running`", async () => {
        const r = await run();
        const res = resultOf(r, "p1");
        expect(res.text, r.describe("p1")).toContain("I won't wait for it.");
        expect(toolSummary(res)).toEqual([{ title: SLOW, kind: "execute", status: "ended_with_agent" }]);
        expect(r.steps.p1.code).toBe(0);
        expect(r.extras["slow-after-p1"] ?? "").toBe("");
      });

      it("c5-unfinished p2 --resume (session/load in a new process): the agent still answers, same session, exit 0", async () => {
        const r = await run();
        const res = resultOf(r, "p2");
        expect(res.text, r.describe("p2")).toBe("Yes. The slow command was left running in the previous process.");
        expect(res.toolCalls).toEqual([]);
        expect(res.sessionId).toBe(resultOf(r, "p1").sessionId);
        expect(r.steps.p2.code).toBe(0);
      });
    });

    describe("registry", () => {
      const run = lazyScenario(agent, mode, "codex/c1.json", [registryRun("reg", "Say hello.", mode.safetyTimeoutS)]);

      it("--agent kit-codex-acp (a registry id) starts the installed adapter from PATH, offline, and answers", async () => {
        const r = await run();
        const res = resultOf(r, "reg");
        expect(res.text, r.describe("reg")).toBe("Hello from the fake model! This reply is streamed in several chunks.");
        expect(res.agent).toBe("kit-codex-acp");
        expect(r.steps.reg.code).toBe(0);
        const init = r.steps.reg.wire.find((l) => l.dir === "agent" && l.msg.result?.agentInfo)?.msg.result.agentInfo;
        expect(init).toMatchObject({ name: "@agentclientprotocol/codex-acp", version: "2.6.0" });
      });
    });

    it("no conch run against codex-next ended in an uncaught exception (stack trace on stderr)", async () => {
      await expectNoCrashes(agent, mode);
    });
  });
});
