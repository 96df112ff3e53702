import { existsSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { acquirePidLock, tryAcquirePidLock } from "../../src/store/pid-lock.js";
import { acquireSessionLock } from "../../src/store/session-lock.js";
import { ensureStateDir, sessionLockPath } from "../../src/store/state-dir.js";
import { deadPid, permissions, useLiveForeignProcess, useTempRoot, withPermissiveUmask } from "./helpers.js";

describe("session lock", () => {
  const tempRoot = useTempRoot();
  const liveForeignProcess = useLiveForeignProcess();

  it("lets one holder in and tells the next who holds it", () => {
    const root = tempRoot();
    const first = acquireSessionLock("s1", root);
    expect(first.ok).toBe(true);
    expect(readFileSync(sessionLockPath("s1", root), "utf8").split("\n")[0]).toBe(String(process.pid));
    expect(acquireSessionLock("s1", root)).toEqual({ ok: false, heldByPid: process.pid });
    expect(acquireSessionLock("s2", root).ok).toBe(true);
    if (first.ok) first.release();
    expect(existsSync(sessionLockPath("s1", root))).toBe(false);
    expect(acquireSessionLock("s1", root).ok).toBe(true);
  });

  it("is refused while a live process of another conch holds it, however old its lock", () => {
    const root = ensureStateDir(tempRoot());
    const other = liveForeignProcess();
    const path = sessionLockPath("s1", root);
    writeFileSync(path, `${other.pid}\n`);
    const longAgo = new Date(Date.now() - 24 * 3600_000);
    utimesSync(path, longAgo, longAgo);
    expect(acquireSessionLock("s1", root)).toEqual({ ok: false, heldByPid: other.pid });
  });

  it("takes over a lock whose pid now belongs to another process (the holder was killed and its pid reused)", () => {
    const root = ensureStateDir(tempRoot());
    const path = sessionLockPath("s1", root);
    // A live pid, but with a start time that is not this process's: as after kill -9 and pid reuse.
    writeFileSync(path, `${liveForeignProcess().pid}\n1\n`);
    expect(acquireSessionLock("s1", root).ok).toBe(true);
  });

  it("takes over a lock left by a dead process", () => {
    const root = ensureStateDir(tempRoot());
    const path = sessionLockPath("s1", root);
    writeFileSync(path, `${deadPid()}\n`);
    const lock = acquireSessionLock("s1", root);
    expect(lock.ok).toBe(true);
    expect(readFileSync(path, "utf8").split("\n")[0]).toBe(String(process.pid));
  });

  it("releasing a lock that was taken over does not remove the new holder's lock", () => {
    const root = ensureStateDir(tempRoot());
    const path = sessionLockPath("s1", root);
    const ours = acquireSessionLock("s1", root);
    // Another process decided ours was stale and replaced it.
    const other = liveForeignProcess();
    writeFileSync(`${path}.new`, `${other.pid}\n`);
    renameSync(`${path}.new`, path);
    if (ours.ok) ours.release();
    expect(readFileSync(path, "utf8").trim()).toBe(String(other.pid));
  });

  it("creates its lock file 0600 under umask 000", async () => {
    const root = tempRoot();
    await withPermissiveUmask(() => acquireSessionLock("s1", root));
    expect(permissions(statSync(sessionLockPath("s1", root)).mode)).toBe(0o600);
  });
});

describe("pid lock with an age limit", () => {
  const tempRoot = useTempRoot();
  const liveForeignProcess = useLiveForeignProcess();

  it("treats a live holder's lock older than the limit as stale", () => {
    const path = `${ensureStateDir(tempRoot())}/x.lock`;
    writeFileSync(path, `${liveForeignProcess().pid}\n`);
    const old = new Date(Date.now() - 31_000);
    utimesSync(path, old, old);
    expect(tryAcquirePidLock(path, { staleAfterMs: 30_000 }).ok).toBe(true);
  });

  it("gives up waiting on a live holder with a message naming the lock file", async () => {
    const path = `${ensureStateDir(tempRoot())}/x.lock`;
    const other = liveForeignProcess();
    writeFileSync(path, `${other.pid}\n`);
    await expect(acquirePidLock(path, { timeoutMs: 100, staleAfterMs: 30_000, description: "the test" })).rejects.toThrow(
      `process ${other.pid} holds ${path}`,
    );
  });

  it("waits for a live holder and proceeds once it lets go", async () => {
    const path = `${ensureStateDir(tempRoot())}/x.lock`;
    const held = tryAcquirePidLock(path);
    expect(held.ok).toBe(true);
    let acquired = false;
    const waiting = acquirePidLock(path, { timeoutMs: 5_000, description: "the test" }).then((release) => {
      acquired = true;
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(acquired).toBe(false);
    if (held.ok) held.release();
    (await waiting)();
    expect(acquired).toBe(true);
  });

  it("presumes a lock whose holder never wrote its pid crashed, after a grace period", () => {
    const path = `${ensureStateDir(tempRoot())}/x.lock`;
    writeFileSync(path, "");
    expect(tryAcquirePidLock(path)).toEqual({ ok: false, heldByPid: undefined });
    const old = new Date(Date.now() - 10_000);
    utimesSync(path, old, old);
    expect(tryAcquirePidLock(path).ok).toBe(true);
  });
});
