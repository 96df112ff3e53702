import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Orchestrator } from "../../../src/orchestrator/orchestrator.js";
import { WorkspaceCheckpoints } from "../../../src/store/checkpoint-store.js";
import { gitRuns } from "../../support/git-runs.js";
import { tempDir } from "../../support/run-conch.js";
import { FakeAgent, flush } from "../fake-agent.js";

/** The checkpoints, with a handle on their warm-up (which the orchestrator starts and does not wait for). */
class Watched extends WorkspaceCheckpoints {
  private done = (): void => undefined;
  readonly warmed = new Promise<void>((resolve) => (this.done = resolve));
  override async warm(): Promise<void> {
    await super.warm();
    this.done();
  }
}

/** An orchestrator whose agent is up once the checkpoints' warm-up is done (`beforeAgent` runs then). */
function setup(beforeAgent: (ws: string) => void = () => undefined) {
  const ws = tempDir("conch-ws-");
  writeFileSync(path.join(ws, "a.txt"), "one\n");
  writeFileSync(path.join(ws, "b.txt"), "two\n");
  const runs = gitRuns();
  const checkpoints = runs.around(() => new Watched(ws, tempDir("conch-state-")));
  const agent = new FakeAgent();
  let mark = 0;
  const orch = new Orchestrator({
    agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
    cwd: ws,
    policy: "ask",
    timing: { quietMs: 50, stallMs: 10_000 },
    checkpoints,
    connect: async (hooks) => {
      await checkpoints.warmed;
      beforeAgent(ws);
      mark = runs.list().length;
      agent.hooks = hooks;
      return agent;
    },
  });
  /** The git runs since the agent came up (or since the `from`th), when the first prompt reached it. */
  const atPrompt = async (from = mark) => {
    while (agent.prompts.length === 0) await flush();
    return runs.list().slice(from);
  };
  return { ws, orch, agent, atPrompt, runs };
}

const marks = (orch: Orchestrator) => (orch.state.checkpoints ?? []).map((c) => `${c.stage} ${c.turnId}`);

describe("the first prompt's checkpoint", () => {
  it("typed while the agent starts: goes out after one git run, which the session's open checkpoint shares", async () => {
    const { orch, atPrompt } = setup();
    const started = orch.start();
    orch.send("edit a.txt");
    await started;
    expect(await atPrompt()).toEqual(["ls-files"]);
    expect(marks(orch)).toEqual(["open ", "start t1"]);
    const [open, start] = orch.state.checkpoints ?? [];
    expect(start.tree).toBe(open.tree);
    await orch.shutdown();
  });

  it("sent once the session is ready: goes out after one git run", async () => {
    const { orch, atPrompt, runs } = setup();
    await orch.start();
    await orch.until((s) => (s.checkpoints ?? []).length > 0);
    const from = runs.list().length;
    orch.send("edit a.txt");
    expect(await atPrompt(from)).toEqual(["ls-files"]);
    await orch.shutdown();
  });

  it("undo after it puts back what the turn changed and nothing from before the prompt", async () => {
    // A file changed after the warm-up and before the prompt (by the person, or the agent starting): not the turn's.
    const { ws, orch, agent, atPrompt } = setup((dir) => writeFileSync(path.join(dir, "b.txt"), "mine\n"));
    const started = orch.start();
    orch.send("edit a.txt");
    await started;
    await atPrompt();
    writeFileSync(path.join(ws, "a.txt"), "the agent's edit\n");
    agent.respond(0);
    await orch.until((s) => s.phase === "idle" && s.turns.every((t) => t.endedAt !== undefined));
    const plan = await orch.planUndo("");
    if (plan.kind !== "plan") throw new Error(JSON.stringify(plan));
    expect(plan.plan.files.map((f) => `${f.action} ${f.shown}`)).toEqual(["restore a.txt"]);
    expect(plan.plan.files[0].restored).toEqual({ text: "one\n" });
    await orch.applyUndo(plan.plan);
    expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("one\n");
    expect(readFileSync(path.join(ws, "b.txt"), "utf8")).toBe("mine\n");
    await orch.shutdown();
  });
});
