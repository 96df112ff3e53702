import { randomUUID } from "node:crypto";
import { processes } from "./proc.js";

/** A marker unique to one test, to put in the argv of the processes it starts. */
export function newMarker(): string {
  return `conch-test-marker-${randomUUID()}`;
}

/** Live processes whose command line holds `marker`. */
export function markedProcesses(marker: string): number[] {
  return processes((p) => p.cmdline().includes(marker)).map((p) => p.pid);
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
