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
  repairIndex,
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

  /** A session log as conch writes it: session_started, a prompt and its answer. */
  function writeLog(root: string, id: string, cwd: string, prompt: string, at: number): void {
    const log = openSessionLog<object>(id, root);
    log.append({ type: "session_started", at, info: { sessionId: id, cwd, agentName: "demo", origin: "new" } });
    log.append({ type: "prompt_sent", at: at + 1, turnId: "t1", prompt: [{ type: "text", text: `${prompt}\nmore` }] });
    log.append({ type: "prompt_response", at: at + 2, turnId: "t1", response: { stopReason: "end_turn" } });
    log.close();
  }

  it("rebuilds a damaged index from the session logs, keeps the damaged file aside, and says so once", async () => {
    const root = ensureStateDir(tempRoot());
    writeLog(root, "s1", "/work/a", "first", Date.parse("2025-01-01T00:00:00Z"));
    writeLog(root, "s2", "/work/b", "second", Date.parse("2025-01-02T00:00:00Z"));
    writeFileSync(indexPath(root), "{ not json");
    const listed = await listSessions({}, root);
    expect(listed.map((r) => [r.id, r.title, r.cwd, r.agent, r.messageCount, r.lastStopReason])).toEqual([
      ["s2", "second", "/work/b", "demo", 2, "end_turn"],
      ["s1", "first", "/work/a", "demo", 2, "end_turn"],
    ]);
    expect(listed[0].updatedAt).toBe("2025-01-02T00:00:00.002Z");
    const note = await repairIndex(root);
    expect(note).toMatch(
      /the session index was damaged \(.*\); it was rebuilt from 2 session logs, and the damaged file kept as .*index\.json\.damaged-/,
    );
    expect(readdirSync(root).filter((f) => f.startsWith("index.json.damaged-"))).toHaveLength(1);
    expect(JSON.parse(readFileSync(indexPath(root), "utf8")).sessions).toHaveLength(2);
    expect(await repairIndex(root)).toBeUndefined();
    // An upsert on a damaged index rebuilds it too, instead of failing or starting empty.
    writeFileSync(indexPath(root), '{"sessions": 7}');
    await upsertSession(session("s3"), root);
    expect((await listSessions({}, root)).map((r) => r.id).sort()).toEqual(["s1", "s2", "s3"]);
  });

  it("recovers the record of a session whose log exists but whose index write failed, and a missing index", async () => {
    const root = ensureStateDir(tempRoot());
    await upsertSession(session("s1"), root);
    writeLog(root, "s2/odd id", "/work/b", "lost", Date.now());
    expect(await findSession("s2/o", root)).toMatchObject({ match: { id: "s2/odd id", title: "lost", agentCommand: [] } });
    expect(await repairIndex(root)).toBe("1 session was missing from the index and was recovered from its log");
    unlinkSync(indexPath(root));
    expect((await listSessions({}, root)).map((r) => r.id)).toEqual(["s2/odd id"]);
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
