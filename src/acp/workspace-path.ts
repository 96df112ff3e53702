import { existsSync } from "node:fs";
import { readlink, realpath, stat, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import { isInside } from "../paths/is-inside.js";

/** The deepest existing ancestor's real path, plus the rest: a file being created has no real path yet. */
async function realPathOfMaybeMissing(p: string): Promise<string> {
  const missing: string[] = [];
  let cur = p;
  for (;;) {
    try {
      const real = await realpath(cur);
      return path.join(real, ...missing.reverse());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

/** The refusal an agent gets for any path that leads out of the workspace. */
function outsideWorkspace(requested: string, root: string): RequestError {
  return new RequestError(-32602, `Access denied: ${requested} is outside the workspace ${root}`, { path: requested, workspace: root });
}

/**
 * Resolves a path an agent asked for and refuses it unless it stays inside the workspace, after
 * following symlinks: a link that points out of the workspace is as far out as its target.
 *
 * This is only the early answer for paths that are plainly outside: a symlink can be swapped between
 * this check and the open, so callers also check what they opened ({@link assertOpenedInside}).
 */
export async function confinePath(root: string, requested: string): Promise<string> {
  if (typeof requested !== "string" || requested === "") throw RequestError.invalidParams(undefined, "path is required");
  const abs = path.resolve(root, requested);
  const realRoot = await realpath(root);
  const real = await realPathOfMaybeMissing(abs);
  if (!isInside(realRoot, real)) throw outsideWorkspace(requested, root);
  return real;
}

/**
 * The workspace root an agent's path belongs to: the session's directory, or one of the extra
 * directories the session was opened with (`additionalDirectories`). A relative path is always the
 * session directory's; a path in none of them is left to the session directory, which refuses it.
 */
export async function rootFor(primary: string, extra: readonly string[], requested: string): Promise<string> {
  if (extra.length === 0 || typeof requested !== "string" || !path.isAbsolute(requested)) return primary;
  for (const root of [primary, ...extra]) {
    try {
      await confinePath(root, requested);
      return root;
    } catch {
      // Not in this one: try the next.
    }
  }
  return primary;
}

/**
 * Linux names every open descriptor under /proc/self/fd: its link is the real path of what was
 * opened, and a path through it (`/proc/self/fd/N/name`) resolves inside that very directory,
 * whatever happens to the path it was opened by (an `openat` for a runtime that has none).
 */
export const PROC_FD = existsSync("/proc/self/fd") ? "/proc/self/fd" : undefined;

/**
 * Where an open descriptor really is, checked against the workspace: the kernel's own answer on
 * Linux; elsewhere, the real path of the name it was opened by, accepted only when that names the
 * very same file (device and inode), so a swap after the open cannot pass.
 */
async function openedRealPath(handle: FileHandle, openedAs: string): Promise<string | undefined> {
  if (PROC_FD) {
    const link = await readlink(`${PROC_FD}/${handle.fd}`).catch(() => undefined);
    if (link !== undefined && path.isAbsolute(link)) return link.replace(/ \(deleted\)$/, "");
  }
  try {
    const real = await realpath(openedAs);
    const [opened, named] = await Promise.all([handle.stat(), stat(real)]);
    return opened.dev === named.dev && opened.ino === named.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses (and leaves the caller to close) a descriptor that turned out to be outside the workspace. */
export async function assertOpenedInside(
  realRoot: string,
  handle: FileHandle,
  openedAs: string,
  requested: string,
  root: string,
): Promise<string> {
  const real = await openedRealPath(handle, openedAs);
  if (real === undefined || !isInside(realRoot, real)) throw outsideWorkspace(requested, root);
  return real;
}
