import { readFileSync, writeFileSync, existsSync, statSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import type { UndoPlan } from "../../src/session/undo-plan.js";
import type { SessionState } from "../../src/session/state.js";
import { preImageDirPath } from "../../src/store/state-dir.js";
import { tempDir } from "../support/run-conch.js";
import { useDemoEnv } from "../support/demo-env.js";
import { untilState } from "../support/until-state.js";

const env = useDemoEnv();

const until = untilState;

const base = { agent: "demo", continue: false } as const;

/** Runs one prompt to its end. */
async function turn(orch: Orchestrator, text: string): Promise<SessionState> {
  const before = orch.state.turns.length;
  orch.send(text);
  return until(orch, (s) => s.phase === "idle" && s.turns.length > before && s.turns[s.turns.length - 1].endedAt !== undefined);
}

async function plan(orch: Orchestrator, ref = ""): Promise<UndoPlan> {
  const answer = await orch.planUndo(ref);
  if (answer.kind !== "plan") throw new Error(`no plan: ${answer.lines.join(" / ")}`);
  return answer.plan;
}

async function open(cwd: string, resume?: string) {
  const s = await prepareSession({ ...base, cwd, ...(resume ? { resume } : {}) }, "approve-all");
  await s.orchestrator.start(s.mode);
  // A load replays the session first: undo waits for it, as it waits for any turn.
  await s.orchestrator.waitFor(["idle"]);
  return s;
}

describe("undo a turn's edits (the demo's edit writes through fs/write_text_file)", () => {
  it("puts back the file the last turn changed, after a plan with the diff; the pre-image is kept 0600", async () => {
    const cwd = tempDir();
    const file = path.join(cwd, "notes.md");
    writeFileSync(file, "# Notes\n\nmine\n");
    const s = await open(cwd);
    const orch = s.orchestrator;
    await turn(orch, "/edit notes.md");
    const written = readFileSync(file, "utf8");
    expect(written).toContain("conch demo edit #1");
    const p = await plan(orch);
    expect(p.turnId).toBe("t1");
    expect(p.files).toMatchObject([
      { shown: "notes.md", action: "restore", now: { text: written }, restored: { text: "# Notes\n\nmine\n" } },
    ]);
    expect(p.skipped).toEqual([]);
    const dir = preImageDirPath(orch.state.info!.sessionId, env.stateDir);
    for (const name of readdirSync(dir)) expect(statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    expect(await orch.applyUndo(p)).toEqual({ restored: [file], deleted: [], skipped: [] });
    expect(readFileSync(file, "utf8")).toBe("# Notes\n\nmine\n");
    expect(
      orch.state.items.some((i) => i.kind === "notice" && i.text.includes("undo of turn t1 (/edit notes.md): put back notes.md")),
    ).toBe(true);
    // Undone is undone: nothing is offered again.
    expect(await orch.planUndo()).toMatchObject({ kind: "message" });
    await orch.shutdown();
    await s.recorder.close();
  });

  it("deletes a file the turn created, and refuses one changed since by someone else, saying which and why", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "kept.md"), "old\n");
    const s = await open(cwd);
    const orch = s.orchestrator;
    await turn(orch, "/edit created.md");
    await turn(orch, "/edit kept.md");
    writeFileSync(path.join(cwd, "kept.md"), "my own change\n");
    const second = await plan(orch);
    expect(second.turnId).toBe("t2");
    expect(second.files).toEqual([]);
    expect(second.skipped).toMatchObject([{ shown: "kept.md", reason: "it changed since the turn (by you or another program)" }]);

    const first = await plan(orch, "1");
    expect(first.files).toMatchObject([{ shown: "created.md", action: "delete" }]);
    expect(await orch.applyUndo(first)).toMatchObject({ deleted: [path.join(cwd, "created.md")] });
    expect(existsSync(path.join(cwd, "created.md"))).toBe(false);
    expect(readFileSync(path.join(cwd, "kept.md"), "utf8")).toBe("my own change\n");

    const list = await orch.planUndo("list");
    expect(list).toEqual({
      kind: "message",
      lines: ["turns with changes to undo (/undo <turn>):", "t2 · /edit kept.md · 1 file: kept.md"],
    });
    await orch.shutdown();
    await s.recorder.close();
  });

  it("a file changed while the prompt waited is left, and said so", async () => {
    const cwd = tempDir();
    const file = path.join(cwd, "notes.md");
    writeFileSync(file, "before\n");
    const s = await open(cwd);
    await turn(s.orchestrator, "/edit notes.md");
    const p = await plan(s.orchestrator);
    writeFileSync(file, "changed meanwhile\n");
    expect(await s.orchestrator.applyUndo(p)).toMatchObject({
      restored: [],
      skipped: [{ path: file, reason: "it changed while the undo waited for you" }],
    });
    expect(readFileSync(file, "utf8")).toBe("changed meanwhile\n");
    await s.orchestrator.shutdown();
    await s.recorder.close();
  });

  it("after --resume the turn's edits can still be undone, from the log and the undo store", async () => {
    const cwd = tempDir();
    const file = path.join(cwd, "notes.md");
    writeFileSync(file, "before\n");
    const first = await open(cwd);
    await turn(first.orchestrator, "/edit notes.md");
    await turn(first.orchestrator, "/edit notes.md");
    const sessionId = first.orchestrator.state.info!.sessionId;
    await first.orchestrator.shutdown();
    await first.recorder.close();
    expect(readFileSync(file, "utf8")).toContain("conch demo edit #2");

    const second = await open(cwd, sessionId);
    // The demo agent replays the session (session/load): the undo facts come from conch's own log.
    expect(second.orchestrator.state.info?.origin).toBe("load");
    const p = await plan(second.orchestrator);
    expect(p).toMatchObject({ turnId: "t2", label: "/edit notes.md" });
    await second.orchestrator.applyUndo(p);
    expect(readFileSync(file, "utf8")).toContain("conch demo edit #1");
    expect(readFileSync(file, "utf8")).not.toContain("conch demo edit #2");
    await second.orchestrator.applyUndo(await plan(second.orchestrator));
    expect(readFileSync(file, "utf8")).toBe("before\n");
    await second.orchestrator.shutdown();
    await second.recorder.close();

    // What was undone is in the log too: a third run offers nothing.
    const third = await open(cwd, sessionId);
    expect(await third.orchestrator.planUndo()).toMatchObject({ kind: "message" });
    await third.orchestrator.shutdown();
    await third.recorder.close();
  });
});
