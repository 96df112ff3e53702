import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** A process as /proc shows it; its command line and working directory are read when asked for. */
export interface ProcInfo {
  pid: number;
  /** The executable's name (`comm`). */
  command: string;
  /** The state letter of `stat` (R, S, D, T, …). */
  state: string;
  /** The process group. */
  pgrp: number;
  cmdline(): string;
  /** The working directory, when it can be read. */
  cwd(): string | undefined;
}

/** The test's one /proc scan: every live process (a zombie is not) that `pred` holds for. */
export function processes(pred: (p: ProcInfo) => boolean): ProcInfo[] {
  const found: ProcInfo[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(")");
    const [state, , pgrp] = stat.slice(close + 2).split(" ");
    if (state === "Z" || state === "X") continue;
    const read = (file: string) => {
      try {
        return file === "cwd" ? readlinkSync(`/proc/${entry}/cwd`) : readFileSync(`/proc/${entry}/${file}`, "utf8");
      } catch {
        return undefined; // gone, or not ours to read
      }
    };
    const info: ProcInfo = {
      pid: Number(entry),
      command: stat.slice(stat.indexOf("(") + 1, close),
      state,
      pgrp: Number(pgrp),
      cmdline: () => read("cmdline") ?? "",
      cwd: () => read("cwd"),
    };
    if (pred(info)) found.push(info);
  }
  return found;
}

/** Live processes in process group `pgid`. */
export function liveProcessesInGroup(pgid: number): Array<{ pid: number; command: string }> {
  return processes((p) => p.pgrp === pgid).map(({ pid, command }) => ({ pid, command }));
}

/** Live processes whose working directory is `dir`. */
export function processesIn(dir: string): number[] {
  return processes((p) => p.cwd() === dir).map((p) => p.pid);
}
