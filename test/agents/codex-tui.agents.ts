/**
 * conch's TUI (120x40, a real PTY) against codex-acp 0.16.0 (`codex`) and 2.6.0 (`codex-next`),
 * for every codex script, as scripted and with FAKE_MODEL_LATENCY_MS=3000: a person types the
 * prompts, answers the permission, presses Esc, quits and resumes; the screen is read back and
 * held against the wire (each run's `--trace`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reportSkip, type AgentName } from "./support/real-agents.js";
import { RUN_MODES } from "./support/scenario.js";
import {
  agentEnv,
  cardLines,
  IDLE_INPUT,
  send,
  shown,
  startConch,
  traceUpdates,
  waitForAnswer,
  type AgentEnv,
} from "./support/tui-session.js";

const SLOW = "sleep 1; echo tick; sleep 6; echo done";
const SLEEP30 = "echo start; sleep 30; echo never";
const envs: AgentEnv[] = [];
afterEach(async () => {
  for (const e of envs.splice(0)) await e.stop();
});

async function open(agent: AgentName, script: string, latencyMs: number): Promise<AgentEnv> {
  const env = await agentEnv(agent, script, latencyMs);
  envs.push(env);
  return env;
}

for (const agent of ["codex", "codex-next"] as const satisfies readonly AgentName[]) {
  const skip = reportSkip(agent);
  describe.skipIf(skip)(`${agent} TUI${skip ? " (NOT INSTALLED: skipped)" : ""}`, () => {
    for (const mode of RUN_MODES) {
      describe(mode.name, () => {
        // A ceiling for one screen to show up: a turn of several model requests at 3 s each.
        const T = mode.latencyMs ? 90_000 : 45_000;

        it("c1: the streamed answer, then the idle input; the wire says end_turn", async () => {
          const env = await open(agent, "codex/c1.json", mode.latencyMs);
          const run = startConch(env, "c1");
          await send(run, "Say hello.");
          await waitForAnswer(run, "Hello from the fake model! This reply is streamed in several chunks.", T);
          expect(
            run.wire().some((l) => l.msg.result?.stopReason === "end_turn"),
            shown(run),
          ).toBe(true);
          expect(await run.quit()).toBe(0);
        });

        it("c2: the permission is asked and allowed with y; the command is shown completed with its answer", async () => {
          const env = await open(agent, "codex/c2.json", mode.latencyMs);
          const run = startConch(env, "c2");
          await send(run, "Run echo hello in the shell.");
          await run.screen.waitForText("Permission", T, "visible");
          expect(run.screen.visible()).toContain("echo hello");
          await run.screen.type("y");
          await waitForAnswer(run, "The command printed: hello", T);
          expect(cardLines(run.screen, "echo hello")[0], shown(run)).toMatch(/^✓ \$ echo hello/);
          expect(run.screen.text()).toContain("allowed once");
          const done = traceUpdates(run).find((u) => u.update.toolCallId === "call_c2_echo" && u.update.status === "completed");
          expect(done).toBeDefined();
          expect(await run.quit()).toBe(0);
        });

        it("c3: the patch is one completed edit; the files change on disk", async () => {
          const env = await open(agent, "codex/c3.json", mode.latencyMs);
          const run = startConch(env, "c3");
          await send(run, "Change 'hello world' to 'hello ACP' in greeting.txt and add NOTES.md.");
          await waitForAnswer(run, "Done: greeting.txt updated and NOTES.md added.", T);
          expect(run.screen.text(), shown(run)).toContain("hello ACP");
          expect(run.screen.text()).toMatch(/✓ .*(Editing files|greeting\.txt|apply_patch)/);
          expect(readFileSync(path.join(env.project, "greeting.txt"), "utf8")).toBe("line one\nhello ACP\nline three\n");
          expect(await run.quit()).toBe(0);
        });

        it("c4: the command's output shows live while it runs, then it completes with exit 0", async () => {
          const env = await open(agent, "codex/c4.json", mode.latencyMs);
          const run = startConch(env, "c4");
          await send(run, "Run the slow command and wait for it.");
          await run.screen.waitForText(/│tick/, T, "visible");
          // "tick" is on screen while the command still runs ("done" comes 6 s later).
          expect(run.screen.visible(), shown(run)).not.toMatch(/│done/);
          await waitForAnswer(run, "The command finished: tick, done.", T);
          expect(cardLines(run.screen, SLOW)[0], shown(run)).toMatch(/^✓ /);
          expect(run.screen.text()).toMatch(/exit 0/);
          expect(await run.quit()).toBe(0);
        });

        it("c5: quit after the slow command; --continue replays it, nothing shown running, and the agent remembers", async () => {
          const env = await open(agent, "codex/c5.json", mode.latencyMs);
          const first = startConch(env, "c5a");
          await send(first, "Run the slow command and wait for it.");
          await waitForAnswer(first, "The command finished: tick, done.", T);
          expect(await first.quit()).toBe(0);
          const again = startConch(env, "c5b", ["--continue"]);
          await again.screen.waitForText("── history", T);
          await send(again, "Are you still there?");
          await waitForAnswer(again, "Resumed: I still remember the slow command.", T);
          const cards = cardLines(again.screen, SLOW);
          expect(cards.length, shown(again)).toBeGreaterThan(0);
          expect(
            cards.every((l) => !/running|◐/.test(l)),
            shown(again),
          ).toBe(true);
          expect(await again.quit()).toBe(0);
        });

        it("c6: Esc stops the essay and, later, the turn running `sleep 30`; the agent goes on with p3", async () => {
          const env = await open(agent, "codex/c6.json", mode.latencyMs);
          const run = startConch(env, "c6");
          await send(run, "Write me a long essay.");
          await run.screen.waitForText("This is a very long answer", T);
          await run.screen.type("\x1b");
          await run.screen.waitForText(IDLE_INPUT, T, "visible");
          await send(run, "Run sleep 30.");
          await run.screen.waitForText(`$ ${SLEEP30}`, T, "visible");
          await run.screen.type("\x1b");
          await run.screen.waitForText(IDLE_INPUT, T, "visible");
          const stopped = run.wire().filter((l) => l.msg.result?.stopReason === "cancelled");
          expect(stopped, shown(run)).toHaveLength(2);
          // codex 0.16 drops the exec at the cancel; codex 2.x runs it on and reports its end.
          const after = cardLines(run.screen, SLEEP30).at(-1) ?? "";
          expect(after, shown(run)).toMatch(agent === "codex" ? /cancelled$/ : /running in the agent's session$/);
          await send(run, "Never mind.");
          await waitForAnswer(run, "OK, I stopped. What next?", T);
          expect(await run.quit()).toBe(0);
          if (agent === "codex-next") expect(cardLines(run.screen, SLEEP30).at(-1), shown(run)).toMatch(/ended with the agent/);
        });

        if (agent === "codex-next") {
          it("c5-unfinished: the command left running shows live after end_turn, ends with the agent at quit, and is not running after --continue", async () => {
            const env = await open(agent, "codex-next/c5-unfinished.json", mode.latencyMs);
            const first = startConch(env, "c5ua");
            await send(first, "Start the slow command and don't wait for it.");
            await waitForAnswer(first, "I won't wait for it.", T);
            await first.screen.waitForText(/│tick/, T, "visible");
            expect(cardLines(first.screen, SLOW).at(-1), shown(first)).toMatch(/running in the agent's session$/);
            // The wire: the prompt answered, and the command was still running (no exit yet).
            expect(first.wire().some((l) => l.msg.result?.stopReason === "end_turn")).toBe(true);
            expect(traceUpdates(first).some((u) => u.update._meta?.terminal_exit)).toBe(false);
            expect(await first.quit()).toBe(0);
            expect(cardLines(first.screen, SLOW).at(-1), shown(first)).toMatch(/ended with the agent/);
            const again = startConch(env, "c5ub", ["--continue"]);
            await again.screen.waitForText("── history", T);
            await send(again, "Are you still there?");
            await waitForAnswer(again, "Yes. The slow command was left running in the previous process.", T);
            expect(
              cardLines(again.screen, SLOW).every((l) => !/running|◐/.test(l)),
              shown(again),
            ).toBe(true);
            expect(await again.quit()).toBe(0);
          });
        }
      });
    }
  });
}
