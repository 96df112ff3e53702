import { readdirSync, readFileSync } from "node:fs";

/**
 * Polls `check` until it returns true. `timeoutMs` is only an upper bound for a broken build:
 * passing tests never wait for it, so they do not depend on machine speed.
 */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Live (not zombie) processes in process group `pgid`, read from /proc. */
export function liveProcessesInGroup(pgid: number): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(")");
    const command = stat.slice(stat.indexOf("(") + 1, close);
    const [state, , pgrp] = stat.slice(close + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") found.push({ pid: Number(entry), command });
  }
  return found;
}
