import { readFileSync } from "node:fs";
import { collectProcessTree, readStat, signalMembers, stillRunning, type ProcessRoot, type TreeMember } from "./process-tree.js";

/** One live process of a tree conch started, as the process table shows it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** Its start time in clock ticks since boot: with the pid, it names this process and no later one. */
  start: string;
  /** When it started (ms since the epoch), where the table says. */
  startedAt?: number;
  /** Its command line, word by word (empty for a kernel thread or one that hid it). */
  argv: string[];
}

/** /proc's clock ticks per second (USER_HZ): 100 on every Linux ABI Node runs on. */
const USER_HZ = 100;
let bootMs: number | undefined | null = null;

/** When the machine booted (ms since the epoch), from /proc/stat; undefined without /proc. */
function bootTime(): number | undefined {
  if (bootMs !== null) return bootMs;
  try {
    const m = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    bootMs = m ? Number(m[1]) * 1000 : undefined;
  } catch {
    bootMs = undefined;
  }
  return bootMs;
}

function readArgv(pid: number): string[] {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return raw.split("\0").filter((word, i, all) => word !== "" || i < all.length - 1);
  } catch {
    return [];
  }
}

/**
 * Every live process of `root`'s tree (see `collectProcessTree`) with its parent, start time and
 * command line: one read of the process table, for a question that needs it (is a command still
 * running? what does the agent run?). Linux only; elsewhere the list is empty.
 */
export function describeProcessTree(root: ProcessRoot): ProcessInfo[] {
  const boot = bootTime();
  const out: ProcessInfo[] = [];
  for (const member of collectProcessTree(root)) {
    const stat = readStat(member.pid);
    if (!stat || stat.zombie || stat.start !== member.start) continue;
    const ticks = Number(stat.start);
    out.push({
      pid: stat.pid,
      ppid: stat.ppid,
      start: stat.start,
      ...(boot !== undefined && Number.isFinite(ticks) ? { startedAt: boot + (ticks * 1000) / USER_HZ } : {}),
      argv: readArgv(stat.pid),
    });
  }
  return out;
}

/** Whether the process table can be read here at all (Linux /proc). */
export function processTableReadable(): boolean {
  return bootTime() !== undefined;
}

/** The members still running, as the same processes they were (a reused pid is not one of them). */
export function runningMembers(members: readonly TreeMember[]): TreeMember[] {
  return members.filter(stillRunning);
}

/** How long a stopped process gets between SIGTERM and SIGKILL. */
const STOP_GRACE_MS = 2000;
const POLL_MS = 50;

/**
 * Stops `members` (a command and what it started): SIGTERM, then SIGKILL to what is left after the
 * grace period. Only processes that are still the ones named (pid and start time) are signalled.
 * Resolves once none is left.
 */
export async function stopMembers(members: readonly TreeMember[], graceMs = STOP_GRACE_MS): Promise<void> {
  signalMembers([...members], "SIGTERM");
  const deadline = Date.now() + graceMs;
  // No event says when a process conch did not spawn ends: the stop looks, as the tree's stop does.
  while (runningMembers(members).length > 0) {
    if (Date.now() >= deadline) {
      signalMembers(runningMembers(members), "SIGKILL");
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
