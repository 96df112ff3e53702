import { liveLockHolder, tryAcquirePidLock } from "./pid-lock.js";
import { ensureStateDir, resolveStateDir, sessionLockPath } from "./state-dir.js";

/** Either the session is ours to write, or another live conch process has it open. */
export type SessionLockResult =
  | { ok: true; release: () => void }
  /** `heldByPid` is undefined only when the holder is still writing its lock file. */
  | { ok: false; heldByPid: number | undefined };

/**
 * Claim session `id` for this process so two conch processes never append to one log.
 * A lock left by a dead process is taken over; a live holder keeps it however old it is,
 * because a session can stay open for days.
 */
export function acquireSessionLock(id: string, root: string = resolveStateDir()): SessionLockResult {
  ensureStateDir(root);
  return tryAcquirePidLock(sessionLockPath(id, root));
}

/** The pid of the conch process that has session `id` open (and writes its log), read without taking the lock. */
export function sessionWriterPid(id: string, root: string = resolveStateDir()): number | undefined {
  return liveLockHolder(sessionLockPath(id, root));
}
