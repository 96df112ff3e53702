import { readdirSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";

/** A marker unique to one test, to put in the argv of the processes it starts. */
export function newMarker(): string {
  return `conch-test-marker-${randomUUID()}`;
}

/** Live (not zombie) processes whose command line holds `marker`, read from /proc. */
export function markedProcesses(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state !== "Z" && state !== "X") found.push(Number(entry));
    } catch {
      /* exited while we looked */
    }
  }
  return found;
}

/** Kills what a failed test left behind, so one failure does not leave daemons on the machine. */
export function killMarked(marker: string): void {
  for (const pid of markedProcesses(marker)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
}
