import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyUndo } from "../../../src/orchestrator/undo/turn-undo.js";
import { planCheckpointUndo } from "../../../src/orchestrator/undo/checkpoint-undo.js";
import { TurnCheckpoints } from "../../../src/orchestrator/undo/turn-checkpoints.js";
import type { SessionEvent, SessionEventInput } from "../../../src/session/events.js";
import { reduce } from "../../../src/session/reduce.js";
import { initialSessionState, type SessionState } from "../../../src/session/state.js";
import { WorkspaceCheckpoints } from "../../../src/store/checkpoint-store.js";
import { tempDir } from "../../support/run-conch.js";

/** A session's events folded as the orchestrator's queue would, without an agent. */
class Events {
  state: SessionState = initialSessionState();
  at = 1;
  dispatch(input: SessionEventInput): void {
    this.state = reduce(this.state, { ...input, at: this.at++ } as SessionEvent);
  }
}

function workspace(files: Record<string, string>): string {
  const ws = tempDir("conch-ws-");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
  }
  return ws;
}

/** One turn: the prompt, its checkpoint, what `act` changes on disk, and the turn's end. */
async function turn(events: Events, cps: TurnCheckpoints, id: string, act: () => void): Promise<void> {
  events.dispatch({ type: "prompt_sent", turnId: id, prompt: [{ type: "text", text: `prompt ${id}` }] });
  await cps.beforePrompt(id);
  act();
  events.dispatch({ type: "prompt_response", turnId: id, response: { stopReason: "end_turn" } });
  await cps.beforeSettle();
  events.dispatch({ type: "settled" });
}

function setup(files: Record<string, string>) {
  const ws = workspace(files);
  const state = tempDir("conch-state-");
  const events = new Events();
  events.dispatch({ type: "session_started", info: { sessionId: "s1", cwd: ws } as never });
  const store = new WorkspaceCheckpoints(ws, state);
  return { ws, events, cps: new TurnCheckpoints(events, store), io: { cwd: ws, checkpoints: store } };
}

describe("undo from checkpoints", () => {
  it("puts back what a turn changed, whoever changed it, and redo applies it again", async () => {
    const { ws, events, cps, io } = setup({ "hello.txt": "hello world\n", "keep.txt": "keep\n", ".gitignore": "*.log\n" });
    await turn(events, cps, "t1", () => {
      writeFileSync(path.join(ws, "hello.txt"), "hello ACP\n"); // the agent's own edit tool
      writeFileSync(path.join(ws, "created.txt"), ""); // a command it ran: touch created.txt
      unlinkSync(path.join(ws, "keep.txt")); // rm keep.txt
      writeFileSync(path.join(ws, "build.log"), "ignored\n");
    });
    const answer = await planCheckpointUndo(events.state, "", io);
    if (answer?.kind !== "plan") throw new Error(JSON.stringify(answer));
    expect(answer.plan.files.map((f) => `${f.action} ${f.shown}`).sort()).toEqual([
      "delete created.txt",
      "restore hello.txt",
      "restore keep.txt",
    ]);
    const out = await applyUndo(answer.plan, io);
    events.dispatch({ type: "edits_undone", turnId: "t1", restored: out.restored, deleted: out.deleted, skipped: [] });
    expect(readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello world\n");
    expect(readFileSync(path.join(ws, "keep.txt"), "utf8")).toBe("keep\n");
    expect(existsSync(path.join(ws, "created.txt"))).toBe(false);
    expect(existsSync(path.join(ws, "build.log"))).toBe(true);
    expect(await planCheckpointUndo(events.state, "", io)).toMatchObject({ kind: "message" });

    const redo = await planCheckpointUndo(events.state, "", io, true);
    if (redo?.kind !== "plan") throw new Error(JSON.stringify(redo));
    expect(redo.plan.redo).toBe(true);
    const again = await applyUndo(redo.plan, io);
    events.dispatch({ type: "edits_redone", turnId: "t1", restored: again.restored, deleted: again.deleted, skipped: [] });
    expect(readFileSync(path.join(ws, "hello.txt"), "utf8")).toBe("hello ACP\n");
    expect(existsSync(path.join(ws, "created.txt"))).toBe(true);
    expect(existsSync(path.join(ws, "keep.txt"))).toBe(false);
  });

  it("leaves a file changed since the turn, and says so", async () => {
    const { ws, events, cps, io } = setup({ "a.txt": "one\n" });
    await turn(events, cps, "t1", () => writeFileSync(path.join(ws, "a.txt"), "two\n"));
    writeFileSync(path.join(ws, "a.txt"), "mine\n");
    const answer = await planCheckpointUndo(events.state, "", io);
    if (answer?.kind !== "plan") throw new Error(JSON.stringify(answer));
    expect(answer.plan.files).toEqual([]);
    expect(answer.plan.skipped[0].reason).toMatch(/changed since the turn/);
  });

  it("never touches the project's .git, even when .git is a file (a worktree)", async () => {
    const main = workspace({ "a.txt": "one\n" });
    execFileSync("git", ["init", "-q"], { cwd: main });
    execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qam", "x", "--allow-empty"], { cwd: main });
    const wt = path.join(tempDir(), "wt");
    execFileSync("git", ["worktree", "add", "-q", wt], { cwd: main });
    writeFileSync(path.join(wt, "a.txt"), "one\n");
    const gitFile = readFileSync(path.join(wt, ".git"), "utf8");
    const status = () => execFileSync("git", ["status", "--porcelain"], { cwd: wt }).toString();
    const before = status();
    const events = new Events();
    const store = new WorkspaceCheckpoints(wt, tempDir("conch-state-"));
    const cps = new TurnCheckpoints(events, store);
    await turn(events, cps, "t1", () => writeFileSync(path.join(wt, "a.txt"), "two\n"));
    const answer = await planCheckpointUndo(events.state, "", { cwd: wt, checkpoints: store });
    if (answer?.kind !== "plan") throw new Error(JSON.stringify(answer));
    expect(answer.plan.files.map((f) => f.shown)).toEqual(["a.txt"]);
    await applyUndo(answer.plan, { cwd: wt });
    expect(readFileSync(path.join(wt, ".git"), "utf8")).toBe(gitFile);
    expect(status()).toBe(before);
    expect(execFileSync("git", ["stash", "list"], { cwd: main }).toString()).toBe("");
  });

  it("a shadow repository deleted mid-session: undo says the checkpoints are gone, the next turn records again", async () => {
    const { ws, events, cps, io } = setup({ "a.txt": "one\n" });
    await turn(events, cps, "t1", () => writeFileSync(path.join(ws, "a.txt"), "two\n"));
    rmSync(io.checkpoints.dir, { recursive: true, force: true });
    const gone = await planCheckpointUndo(events.state, "", io);
    expect(gone).toMatchObject({ kind: "message", error: true });
    expect((gone as { lines: string[] }).lines[0]).toMatch(/checkpoints of turn t1 are gone/);
    await turn(events, cps, "t2", () => writeFileSync(path.join(ws, "a.txt"), "three\n"));
    const answer = await planCheckpointUndo(events.state, "t2", io);
    if (answer?.kind !== "plan") throw new Error(JSON.stringify(answer));
    await applyUndo(answer.plan, io);
    expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("two\n");
  });

  it("a project too big for checkpoints says so once; a file too large is left with a reason", async () => {
    const ws = workspace({ "a.txt": "1", "b.txt": "2", "c.txt": "3" });
    const events = new Events();
    const small = new WorkspaceCheckpoints(ws, tempDir("conch-state-"), { files: 2, fileBytes: 100, changeBytes: 1000 });
    expect(await small.snapshot()).toMatchObject({ error: expect.stringMatching(/more than 2 files that .gitignore does not exclude/) });
    const cps = new TurnCheckpoints(events, small);
    await cps.beforePrompt("t1");
    await cps.beforePrompt("t2");
    expect(events.state.items.filter((i) => i.kind === "notice").length).toBe(1);

    const ws2 = workspace({ "big.bin": "x".repeat(200), "a.txt": "a" });
    const store = new WorkspaceCheckpoints(ws2, tempDir("conch-state-"), { files: 100, fileBytes: 100, changeBytes: 10_000 });
    const cps2 = new TurnCheckpoints(events, store);
    events.dispatch({ type: "session_started", info: { sessionId: "s2", cwd: ws2 } as never });
    await turn(events, cps2, "t3", () => writeFileSync(path.join(ws2, "big.bin"), "y"));
    const answer = await planCheckpointUndo(events.state, "t3", { cwd: ws2, checkpoints: store });
    if (answer?.kind !== "plan") throw new Error(JSON.stringify(answer));
    expect(answer.plan.skipped.map((s) => `${s.shown}: ${s.reason}`)).toEqual([
      expect.stringMatching(/^big.bin: it was larger than checkpoints keep/),
    ]);
  });

  it("a symlink out of the workspace is recorded as a link, never followed", async () => {
    const outside = workspace({ "secret.txt": "secret\n" });
    const { ws, events, cps, io } = setup({ "a.txt": "a\n" });
    symlinkSync(path.join(outside, "secret.txt"), path.join(ws, "link.txt"));
    await turn(events, cps, "t1", () => writeFileSync(path.join(outside, "secret.txt"), "changed\n"));
    // The link itself did not change (git records where it points): the turn has nothing to undo.
    expect((await planCheckpointUndo(events.state, "", io))?.kind).not.toBe("plan");
    expect(readFileSync(path.join(outside, "secret.txt"), "utf8")).toBe("changed\n");
  });
});
