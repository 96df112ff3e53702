import { readFileSync } from "node:fs";

const watchers = new Map<number, () => void>();
/** Re-checks after a SIGCHLD, for platforms where a not yet reaped child cannot be told apart. */
const RECHECK_DELAYS_MS = [5, 25, 100];

/**
 * Calls `onGone` once, soon after child process `pid` has exited. Driven by SIGCHLD, so it costs
 * nothing while the child runs. node-pty only reports an exit after its PTY has closed, which is
 * too late to rescue unread output (see pty-exit-drain.ts). Returns the function that stops watching.
 */
export function watchChildExit(pid: number, onGone: () => void): () => void {
  if (process.platform === "win32") return () => {};
  if (watchers.size === 0) process.on("SIGCHLD", onChildSignal);
  watchers.set(pid, onGone);
  // It may have exited before we started listening.
  queueMicrotask(checkWatchers);
  return () => unwatch(pid);
}

function unwatch(pid: number): void {
  if (!watchers.delete(pid)) return;
  if (watchers.size === 0) process.off("SIGCHLD", onChildSignal);
}

function onChildSignal(): void {
  checkWatchers();
  for (const delay of RECHECK_DELAYS_MS) setTimeout(checkWatchers, delay).unref();
}

function checkWatchers(): void {
  for (const [pid, onGone] of [...watchers]) {
    if (!hasExited(pid)) continue;
    unwatch(pid);
    onGone();
  }
}

/** True once `pid` is reaped or a zombie (exited, not yet reaped by node-pty's wait thread). */
function hasExited(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch {
    return false; // no /proc (macOS): the rechecks catch it once reaped
  }
}
