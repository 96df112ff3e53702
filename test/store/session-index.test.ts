import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  deleteSession,
  findSession,
  latestInCwd,
  listSessions,
  upsertSession,
  type SessionRecord,
} from "../../src/store/session-index.js";
import { acquireSessionLock } from "../../src/store/session-lock.js";
import { openSessionLog } from "../../src/store/session-log.js";
import { ensureStateDir, indexPath, sessionLogPath } from "../../src/store/state-dir.js";
import { compileStore } from "./compile-store.js";
import { deadPid, permissions, useLiveForeignProcess, useTempRoot, withPermissiveUmask } from "./helpers.js";

const run = promisify(execFile);

function session(id: string, extra: Partial<SessionRecord> = {}) {
  return { id, agent: "demo", agentCommand: ["conch", "--demo"], cwd: "/work/a", ...extra };
}

describe("session index", () => {
  const tempRoot = useTempRoot();
  const liveForeignProcess = useLiveForeignProcess();

  it("creates a record with defaults and merges later updates into it", async () => {
    const root = tempRoot();
    const created = await upsertSession(session("s1"), root);
    expect(created).toMatchObject({ id: "s1", agent: "demo", messageCount: 0 });
    expect(created.createdAt).toBe(created.updatedAt);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

    const updated = await upsertSession(
      { id: "s1", title: "fix the bug", lastStopReason: "end_turn", messageCount: 4, agent: undefined },
      root,
    );
    expect(updated).toMatchObject({ agent: "demo", title: "fix the bug", lastStopReason: "end_turn", messageCount: 4 });
    expect(updated.createdAt).toBe(created.createdAt);
    expect(await listSessions({}, root)).toEqual([updated]);
  });

  it("refuses to create a record without agent, command and cwd", async () => {
    await expect(upsertSession({ id: "s1", title: "x" }, tempRoot())).rejects.toThrow(/agent, agentCommand and cwd/);
  });

  it("lists newest first, filters by cwd, and finds the latest in a cwd", async () => {
    const root = tempRoot();
    await upsertSession(session("old", { updatedAt: "2024-01-01T00:00:00.000Z" }), root);
    await upsertSession(session("new", { updatedAt: "2024-03-01T00:00:00.000Z" }), root);
    await upsertSession(session("other", { cwd: "/work/b", updatedAt: "2024-05-01T00:00:00.000Z" }), root);
    expect((await listSessions({}, root)).map((s) => s.id)).toEqual(["other", "new", "old"]);
    expect((await listSessions({ cwd: "/work/a/" }, root)).map((s) => s.id)).toEqual(["new", "old"]);
    expect((await latestInCwd("/work/a", root))?.id).toBe("new");
    expect(await latestInCwd("/nowhere", root)).toBeUndefined();
  });

  it("lists nothing before any session exists", async () => {
    expect(await listSessions({}, tempRoot())).toEqual([]);
  });

  it("finds sessions by unique prefix, reports ambiguity, and suggests near misses", async () => {
    const root = tempRoot();
    for (const id of ["abc123", "abd456", "xyz789"]) await upsertSession(session(id), root);
    expect(await findSession("abc", root)).toMatchObject({ match: { id: "abc123" } });
    const ambiguous = await findSession("ab", root);
    expect("ambiguous" in ambiguous && ambiguous.ambiguous.map((s) => s.id).sort()).toEqual(["abc123", "abd456"]);
    const none = await findSession("abz", root);
    expect("none" in none && none.closest.map((s) => s.id).sort()).toEqual(["abc123", "abd456"]);
  });

  it("deletes a session's record and its log", async () => {
    const root = tempRoot();
    await upsertSession(session("s1"), root);
    await upsertSession(session("s2"), root);
    const log = openSessionLog("s1", root);
    log.append({ type: "x" });
    log.close();
    expect(await deleteSession("s1", root)).toBe(true);
    expect(existsSync(sessionLogPath("s1", root))).toBe(false);
    expect((await listSessions({}, root)).map((s) => s.id)).toEqual(["s2"]);
    expect(await deleteSession("s1", root)).toBe(false);
  });

  it("will not delete a session another conch process has open", async () => {
    const root = ensureStateDir(tempRoot());
    await upsertSession(session("s1"), root);
    const other = liveForeignProcess();
    writeFileSync(join(root, "sessions", "s1.lock"), `${other.pid}\n`);
    await expect(deleteSession("s1", root)).rejects.toThrow(`open in conch process ${other.pid}`);
    expect(await listSessions({}, root)).toHaveLength(1);
  });

  it("a crash between temp write and rename leaves the old index readable, and the stray is cleared later", async () => {
    const root = tempRoot();
    await upsertSession(session("s1"), root);
    const before = readFileSync(indexPath(root), "utf8");
    // What a writer that died before its rename leaves behind: a half-written temp file.
    const stray = `${indexPath(root)}.99999.deadbeef.tmp`;
    writeFileSync(stray, before.slice(0, 20));
    expect((await listSessions({}, root)).map((s) => s.id)).toEqual(["s1"]);
    expect(readFileSync(indexPath(root), "utf8")).toBe(before);

    await upsertSession(session("s2"), root);
    expect(existsSync(stray)).toBe(false);
    expect((await listSessions({}, root)).map((s) => s.id).sort()).toEqual(["s1", "s2"]);
    expect(readdirSync(root).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("explains a damaged index instead of silently starting over", async () => {
    const root = ensureStateDir(tempRoot());
    writeFileSync(indexPath(root), "{ not json");
    await expect(listSessions({}, root)).rejects.toThrow(/session index .* is damaged/);
    await expect(upsertSession(session("s1"), root)).rejects.toThrow(/damaged/);
    expect(readFileSync(indexPath(root), "utf8")).toBe("{ not json");
  });

  it("writes the index and its lock 0600 and its dirs 0700 under umask 000", async () => {
    const root = tempRoot();
    await withPermissiveUmask(async () => {
      await upsertSession(session("s1"), root);
      expect(acquireSessionLock("s1", root).ok).toBe(true);
    });
    expect(permissions(statSync(indexPath(root)).mode)).toBe(0o600);
    expect(permissions(statSync(join(root, "sessions", "s1.lock")).mode)).toBe(0o600);
    expect(permissions(statSync(root).mode)).toBe(0o700);
  });

  it("loses no record when many updates in one process race for the lock", async () => {
    const root = tempRoot();
    await Promise.all(Array.from({ length: 40 }, (_, n) => upsertSession(session(`s${n}`), root)));
    expect(await listSessions({}, root)).toHaveLength(40);
    expect(existsSync(join(root, "index.lock"))).toBe(false);
  });

  it("waits while a live process holds index.lock and proceeds once it is gone", async () => {
    const root = ensureStateDir(tempRoot());
    const lock = join(root, "index.lock");
    writeFileSync(lock, `${liveForeignProcess().pid}\n`);
    let done = false;
    const update = upsertSession(session("s1"), root).then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(done).toBe(false);
    unlinkSync(lock);
    await update;
    expect(await listSessions({}, root)).toHaveLength(1);
  });

  it("takes over an index.lock left by a dead process", async () => {
    const root = ensureStateDir(tempRoot());
    writeFileSync(join(root, "index.lock"), `${deadPid()}\n`);
    await upsertSession(session("s1"), root);
    expect(await listSessions({}, root)).toHaveLength(1);
    expect(existsSync(join(root, "index.lock"))).toBe(false);
  });

  it("loses no record when four conch processes update the index at once", async () => {
    const root = ensureStateDir(tempRoot());
    const compiled = compileStore(join(root, "..", "compiled-store"));
    const fixture = join(import.meta.dirname, "fixtures", "upsert-many.mjs");
    const perProcess = 25;
    await Promise.all(
      ["p0", "p1", "p2", "p3"].map((prefix) =>
        run(process.execPath, [fixture, join(compiled, "session-index.js"), root, prefix, String(perProcess)]),
      ),
    );
    const ids = (await listSessions({}, root)).map((s) => s.id);
    expect(ids).toHaveLength(4 * perProcess);
    expect(new Set(ids).size).toBe(4 * perProcess);
    expect(existsSync(join(root, "index.lock"))).toBe(false);
  });
});
