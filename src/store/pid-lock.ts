import { closeSync, fstatSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { errorCode, openPrivateFileSync, writeAllSync } from "./private-fs.js";

/** The outcome of one attempt to take a lock file. */
export type PidLockAttempt =
  | { ok: true; release: () => void }
  /** `heldByPid` is undefined when the holder had not yet written its pid. */
  | { ok: false; heldByPid: number | undefined };

/** When a held lock may be taken over. */
export interface PidLockOptions {
  /**
   * A lock older than this is stale even if its pid is alive: guards against a hung holder and
   * against pid reuse. Omit for locks held for a whole session, which only a dead pid frees.
   */
  staleAfterMs?: number;
}

/** A lock whose pid could not be read is presumed crashed mid-creation after this long. */
const UNWRITTEN_LOCK_GRACE_MS = 5_000;
/** The breaker lock is held for microseconds; one this old belongs to a crashed process. */
const BREAKER_STALE_MS = 5_000;

interface Holder {
  pid: number | undefined;
  /** When the holder process started (Linux), so a reused pid is not taken for the holder. */
  startedAt: string | undefined;
  ino: number;
  ageMs: number;
}

/**
 * When process `pid` started, in clock ticks since boot: field 22 of /proc/<pid>/stat (after the
 * parenthesised command name, which may itself hold spaces). Undefined where there is no /proc.
 */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] || undefined;
  } catch {
    return undefined;
  }
}

const ownStartTime = processStartTime(process.pid);

/**
 * Try once to take the lock file at `lockPath`: created with O_EXCL and holding our pid.
 * A stale lock (dead pid, or older than `staleAfterMs`) is taken over.
 */
export function tryAcquirePidLock(lockPath: string, options: PidLockOptions = {}): PidLockAttempt {
  let lastHolder: Holder | undefined;
  // Each round either takes the lock or clears one stale holder; a few rounds cover the
  // races where another process takes or clears it between our steps.
  for (let round = 0; round < 3; round++) {
    const release = createLockFile(lockPath);
    if (release) return { ok: true, release };
    const holder = readHolder(lockPath);
    if (!holder) continue; // released between our create and read
    lastHolder = holder;
    if (!isStale(holder, options.staleAfterMs)) return { ok: false, heldByPid: holder.pid };
    breakStaleLock(lockPath, options.staleAfterMs);
  }
  return { ok: false, heldByPid: lastHolder?.pid };
}

/** How long `acquirePidLock` waits for a live holder. */
export interface WaitForPidLockOptions extends PidLockOptions {
  timeoutMs: number;
  /** Names the lock in the timeout error, e.g. "the session index". */
  description: string;
}

/** Take the lock at `lockPath`, waiting (with backoff) up to `timeoutMs`; returns its release. */
export async function acquirePidLock(lockPath: string, options: WaitForPidLockOptions): Promise<() => void> {
  const deadline = Date.now() + options.timeoutMs;
  let delayMs = 2;
  for (;;) {
    const attempt = tryAcquirePidLock(lockPath, options);
    if (attempt.ok) return attempt.release;
    if (Date.now() >= deadline) {
      const holder = attempt.heldByPid === undefined ? "another process" : `process ${attempt.heldByPid}`;
      throw new Error(
        `Timed out waiting for the lock on ${options.description}: ${holder} holds ${lockPath}. ` +
          `If no other conch is running, delete that file.`,
      );
    }
    // Jitter keeps several waiters from retrying in lockstep.
    await sleep(delayMs + Math.random() * delayMs);
    delayMs = Math.min(delayMs * 2, 50);
  }
}

/** The pid of the live process holding the lock at `lockPath`, without taking it; undefined when none does. */
export function liveLockHolder(lockPath: string): number | undefined {
  const holder = readHolder(lockPath);
  if (!holder || holder.pid === undefined || isStale(holder, undefined)) return undefined;
  return holder.pid;
}

/** Create the lock file exclusively; returns its release, or undefined if it already exists. */
function createLockFile(lockPath: string): (() => void) | undefined {
  let fd: number;
  try {
    fd = openPrivateFileSync(lockPath, "wx");
  } catch (error) {
    if (errorCode(error) === "EEXIST") return undefined;
    throw error;
  }
  let ino: number;
  try {
    writeAllSync(fd, `${process.pid}\n${ownStartTime ?? ""}\n`);
    ino = fstatSync(fd).ino;
  } finally {
    closeSync(fd);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Only remove the file we created: if ours was judged stale and taken over, the file at
    // this path now belongs to someone else.
    try {
      if (statSync(lockPath).ino === ino) unlinkSync(lockPath);
    } catch (error) {
      if (errorCode(error) !== "ENOENT") throw error;
    }
  };
}

/** Who holds the lock now, or undefined if the file is gone. */
function readHolder(lockPath: string): Holder | undefined {
  try {
    const stat = statSync(lockPath);
    const [pidLine, startLine] = readFileSync(lockPath, "utf8").split("\n");
    const pid = Number.parseInt(pidLine.trim(), 10);
    return {
      pid: Number.isInteger(pid) && pid > 0 ? pid : undefined,
      startedAt: startLine?.trim() || undefined,
      ino: stat.ino,
      ageMs: Date.now() - stat.mtimeMs,
    };
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

function isStale(holder: Holder, staleAfterMs: number | undefined): boolean {
  if (holder.pid === undefined) return holder.ageMs > UNWRITTEN_LOCK_GRACE_MS;
  if (!isProcessAlive(holder.pid)) return true;
  // The pid is alive, but it is another process that got the holder's pid after it died (kill -9).
  if (holder.startedAt !== undefined) {
    const now = processStartTime(holder.pid);
    if (now !== undefined && now !== holder.startedAt) return true;
  }
  return staleAfterMs !== undefined && holder.ageMs > staleAfterMs;
}

/** Whether a process with this pid exists (on this machine). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return errorCode(error) === "EPERM";
  }
}

/**
 * Remove a stale lock without racing another process doing the same: two processes that both
 * saw the stale file could otherwise each unlink it, the second deleting the fresh lock the
 * first just created. Removal happens only under a short-lived breaker lock, after re-checking
 * that the file is still the stale one.
 */
function breakStaleLock(lockPath: string, staleAfterMs: number | undefined): void {
  const breakerPath = `${lockPath}.break`;
  const releaseBreaker = createLockFile(breakerPath);
  if (!releaseBreaker) {
    const breaker = readHolder(breakerPath);
    if (breaker && isStale(breaker, BREAKER_STALE_MS)) unlinkIfSame(breakerPath, breaker.ino);
    return;
  }
  try {
    const holder = readHolder(lockPath);
    if (holder && isStale(holder, staleAfterMs)) unlinkIfSame(lockPath, holder.ino);
  } finally {
    releaseBreaker();
  }
}

function unlinkIfSame(path: string, ino: number): void {
  try {
    if (statSync(path).ino === ino) unlinkSync(path);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}
