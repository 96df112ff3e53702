import { mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WorkspaceCheckpoints, type Snapshot } from "../../src/store/checkpoint-store.js";
import { gitRuns } from "../support/git-runs.js";
import { tempDir } from "../support/run-conch.js";

function workspace(): string {
  const ws = tempDir("conch-ws-");
  writeFileSync(path.join(ws, "a.txt"), "one\n");
  writeFileSync(path.join(ws, "b.txt"), "two\n");
  return ws;
}

async function tree(store: WorkspaceCheckpoints): Promise<string> {
  const snap = await store.snapshot();
  if ("error" in snap) throw new Error(snap.error);
  return snap.tree;
}

describe("the workspace's checkpoints, in git runs", () => {
  it("made ready in the background: a snapshot after it is one scan, and nothing changed gives the same tree", async () => {
    const runs = gitRuns();
    const store = runs.around(() => new WorkspaceCheckpoints(workspace(), tempDir("conch-state-")));
    await store.warm();
    // No `git config` runs; the second write-tree leaves the index as its tree's.
    expect(runs.list()).toEqual(["init", "ls-files", "update-index", "write-tree", "write-tree"]);
    const before = runs.list().length;
    const first = await tree(store);
    expect(runs.list().slice(before)).toEqual(["ls-files"]);
    expect(await tree(store)).toBe(first);
    expect(runs.list().slice(before)).toEqual(["ls-files", "ls-files"]);
  });

  it("a snapshot asked for before the waiting one begins shares its scan (the session's open and its first prompt)", async () => {
    const ws = workspace();
    const runs = gitRuns();
    const store = runs.around(() => new WorkspaceCheckpoints(ws, tempDir("conch-state-")));
    await store.warm();
    const before = runs.list().length;
    const running = store.snapshot();
    await new Promise((r) => setImmediate(r));
    // Both asked for while the one above runs: one scan after both, for both.
    const open = store.snapshot();
    const start = store.snapshot();
    await running;
    writeFileSync(path.join(ws, "a.txt"), "changed before the shared scan\n");
    const [a, b] = (await Promise.all([open, start])) as Snapshot[];
    expect(a).toBe(b);
    expect(runs.list().slice(before)).toEqual(["ls-files", "ls-files", "update-index", "write-tree"]);
    expect(await store.changes(a.tree, await tree(store))).toEqual([]);
  });

  it("another conch wrote the shared index since: the tree is written again, with what that conch recorded", async () => {
    const ws = workspace();
    const state = tempDir("conch-state-");
    const mine = new WorkspaceCheckpoints(ws, state);
    const other = new WorkspaceCheckpoints(ws, state);
    await mine.warm();
    const first = await tree(mine);
    writeFileSync(path.join(ws, "b.txt"), "the other agent's edit\n");
    const theirs = await tree(other);
    expect(theirs).not.toBe(first);
    // The index now matches the workspace, so the scan finds nothing: only the index's stamp tells.
    expect(await tree(mine)).toBe(theirs);
  });

  it("the shadow repository deleted: made again, and the next snapshot records the workspace", async () => {
    const ws = workspace();
    const state = tempDir("conch-state-");
    const store = new WorkspaceCheckpoints(ws, state);
    await store.warm();
    const first = await tree(store);
    rmSync(store.dir, { recursive: true, force: true });
    expect(await store.has(first)).toBe(false);
    expect(await tree(store)).toBe(first);
    expect(await store.has(first)).toBe(true);
  });

  it("conch's state dir inside the workspace is not recorded: its logs and this repository change every turn, a snapshot stays one scan", async () => {
    const ws = realpathSync(workspace());
    const state = path.join(ws, "home", ".local", "state", "conch");
    const runs = gitRuns();
    const store = runs.around(() => new WorkspaceCheckpoints(ws, state));
    await store.warm();
    const first = await tree(store);
    mkdirSync(path.join(state, "sessions"), { recursive: true });
    writeFileSync(path.join(state, "sessions", "s.jsonl"), "a line of the session's log\n");
    const before = runs.list().length;
    expect(await tree(store)).toBe(first);
    expect(runs.list().slice(before)).toEqual(["ls-files"]);
    writeFileSync(path.join(ws, "a.txt"), "the agent's edit\n");
    expect((await store.changes(first, await tree(store))).map((c) => c.path)).toEqual(["a.txt"]);
  });
});
