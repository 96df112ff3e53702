import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** A fresh state dir per test, removed afterwards. */
export function useTempRoot(): () => string {
  let dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    dirs = [];
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), "conch-store-"));
    dirs.push(dir);
    return join(dir, "state");
  };
}

/** The pid of a process that has already exited. */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  if (child.pid === undefined) throw new Error("could not spawn node");
  return child.pid;
}

/** A live process other than this one, killed after the test. */
export function useLiveForeignProcess(): () => ChildProcess {
  let children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children) child.kill();
    children = [];
  });
  return () => {
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    children.push(child);
    return child;
  };
}

/** Run `body` with the umask set to 000, so only explicit chmods keep files private. */
export async function withPermissiveUmask<R>(body: () => R | Promise<R>): Promise<R> {
  const previous = process.umask(0);
  try {
    return await body();
  } finally {
    process.umask(previous);
  }
}

/** The permission bits of a mode. */
export function permissions(mode: number): number {
  return mode & 0o777;
}
