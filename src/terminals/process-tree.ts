import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { processGroupExists, signalProcessGroup } from "./process-group.js";

/**
 * The environment variable that marks a process conch starts (an agent, a terminal command); every
 * process it starts in turn inherits it. A daemon that left its process group and session, and
 * whose parent exited so that it was reparented, is still found by it.
 */
export const PROCESS_TAG_VAR = "CONCH_PROCESS_TAG";

/** A fresh tag for one process conch starts. */
export function newProcessTag(): string {
  return randomUUID();
}

/** A process found in a tree: its pid and its start time, so a pid reused later is never signalled. */
export interface TreeMember {
  pid: number;
  start: string;
}

/** A process conch started, the root of a tree: read right after spawning, so its pid is known to be it. */
export interface ProcessRoot {
  pid: number;
  /** Its start time (Linux), to tell it from an unrelated process that got the same pid later. */
  start?: string;
  tag?: string;
}

/** Describes a process conch has just spawned. */
export function processRoot(pid: number, tag?: string): ProcessRoot {
  // A child is never reaped before the event loop runs again, so /proc still shows it (maybe a zombie).
  return { pid, start: readStat(pid)?.start, tag };
}

/**
 * False when `root.pid` now belongs to another process: the root exited, was reaped and its pid
 * reused. A pid still in use as a group or session id is never reused, so a root that is merely gone
 * still names its group safely.
 */
function rootIsOurs(root: ProcessRoot): boolean {
  if (root.start === undefined) return true;
  const now = readStat(root.pid);
  return now === undefined || now.start === root.start;
}

/** A process's fields from /proc/<pid>/stat that conch reads. */
export interface ProcStat {
  pid: number;
  ppid: number;
  pgrp: number;
  sid: number;
  start: string;
  zombie: boolean;
}

/** One process's stat line, or undefined when it is gone (or there is no /proc). */
export function readStat(pid: number): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp session ... starttime(22) ..."; comm may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    pid,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    sid: Number(fields[3]),
    start: fields[19] ?? "",
    zombie: fields[0] === "Z" || fields[0] === "X",
  };
}

function readTable(): ProcStat[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined; // no /proc (macOS): the process group is all there is
  }
  const table: ProcStat[] = [];
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const stat = readStat(Number(entry));
    if (stat && !stat.zombie) table.push(stat);
  }
  return table;
}

/** Whether the process's environment carries `tag`; processes of other users cannot be read, and are not ours. */
function carriesTag(pid: number, tag: string): boolean {
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, "latin1");
  } catch {
    return false;
  }
  const entry = `${PROCESS_TAG_VAR}=${tag}`;
  return environ.startsWith(`${entry}\0`) || environ.includes(`\0${entry}\0`) || environ === entry || environ.endsWith(`\0${entry}`);
}

/**
 * Every live process that belongs to `root`, a process conch started (Linux; elsewhere only its
 * process group is known): its descendants by parent pid, every process in a session or process
 * group one of them created (a setsid'd daemon's own children), and every process carrying the
 * root's tag in its environment (a daemon already reparented). Collect it before signalling
 * anything: a setsid'd daemon is found by its parent only while that parent lives. conch itself,
 * its parent, its session and its process group are never part of it.
 */
export function collectProcessTree(root: ProcessRoot): TreeMember[] {
  const table = readTable();
  if (!table) return [];
  const self = readStat(process.pid);
  const foreign = (p: ProcStat) =>
    p.pid === process.pid || p.pid <= 1 || (self !== undefined && (p.sid === self.sid || p.pgrp === self.pgrp || p.pid === self.ppid));
  const candidates = table.filter((p) => !foreign(p));
  const found = new Map<number, ProcStat>();
  const sessions = new Set<number>();
  const groups = new Set<number>();
  const add = (p: ProcStat) => {
    found.set(p.pid, p);
    if (p.sid > 1) sessions.add(p.sid);
    if (p.pgrp > 1) groups.add(p.pgrp);
  };
  const ours = rootIsOurs(root);
  if (ours) groups.add(root.pid);
  for (const p of candidates) if ((ours && p.pid === root.pid) || (root.tag && carriesTag(p.pid, root.tag))) add(p);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of candidates) {
      if (found.has(p.pid)) continue;
      if (found.has(p.ppid) || groups.has(p.pgrp) || sessions.has(p.sid)) {
        add(p);
        grew = true;
      }
    }
  }
  return [...found.values()].map((p) => ({ pid: p.pid, start: p.start }));
}

/** Whether `member` is still the same live process (not exited, not a zombie, its pid not reused). */
export function stillRunning(member: TreeMember): boolean {
  const now = readStat(member.pid);
  return now !== undefined && !now.zombie && now.start === member.start;
}

/** Sends `signal` to each member that is still the same process. */
export function signalMembers(members: TreeMember[], signal: NodeJS.Signals): void {
  for (const m of members) {
    if (!stillRunning(m)) continue;
    try {
      process.kill(m.pid, signal);
    } catch {
      /* gone in between, or not ours to signal */
    }
  }
}

/**
 * Signals the process group led by the root and every process of its tree (see
 * `collectProcessTree`), plus `known` members collected earlier. Returns everything signalled.
 */
export function signalProcessTree(root: ProcessRoot, signal: NodeJS.Signals, known: TreeMember[] = []): TreeMember[] {
  const members = collectProcessTree(root);
  const seen = new Set(members.map((m) => `${m.pid}:${m.start}`));
  for (const m of known) if (!seen.has(`${m.pid}:${m.start}`)) members.push(m);
  if (rootIsOurs(root)) signalProcessGroup(root.pid, signal);
  signalMembers(members, signal);
  return members;
}

/** Whether anything of the tree is left: the root's process group or one of `members`. */
export function processTreeAlive(root: ProcessRoot, members: TreeMember[]): boolean {
  return (rootIsOurs(root) && processGroupExists(root.pid)) || members.some(stillRunning);
}

/** How often a stopping tree is looked at: no event tells conch when a process it did not spawn ends. */
const POLL_MS = 25;

/**
 * Ends a tree: SIGTERM to all of it, SIGKILL to whatever is left after `graceMs`. Resolves once
 * nothing is left, or right after the SIGKILL (which cannot be ignored).
 */
export async function terminateProcessTree(root: ProcessRoot, graceMs: number): Promise<void> {
  const members = signalProcessTree(root, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (processTreeAlive(root, members)) {
    if (Date.now() >= deadline) {
      signalProcessTree(root, "SIGKILL", members);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const tracked = new Set<ProcessRoot>();
let exitHookInstalled = false;

/**
 * Remembers a tree so it is SIGKILLed if conch exits before it was stopped: nothing conch started
 * may outlive it, even after a crash or `process.exit()`. Returns the function that forgets it.
 */
export function trackProcessTree(root: ProcessRoot): () => void {
  tracked.add(root);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", killTrackedTrees);
  }
  return () => {
    tracked.delete(root);
  };
}

function killTrackedTrees(): void {
  for (const root of tracked) signalProcessTree(root, "SIGKILL");
  tracked.clear();
}
