import { constants } from "node:os";

/**
 * Sends `signal` to the process group led by `pid`: node-pty makes each command a session leader,
 * so its children share the group. Never falls back to the bare pid, which may belong to an
 * unrelated process once the command is reaped. Returns false when no such group exists.
 */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals | number): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process conch may signal (zombies included) is left in the group led by `pid`. A
 * group we may not signal (EPERM) counts as gone: there is nothing more we could do to it.
 */
export function processGroupExists(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** "SIGTERM" for 15; null for 0, undefined or a number this platform does not name. */
export function signalName(signal: number | undefined): string | null {
  if (!signal) return null;
  for (const [name, value] of Object.entries(constants.signals)) {
    if (value === signal) return name;
  }
  return `SIG${signal}`;
}
