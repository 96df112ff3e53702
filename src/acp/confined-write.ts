import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open, rename, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";
import { assertOpenedInside, PROC_FD } from "./workspace-path.js";

/** A directory opened and checked to be inside the workspace. */
class CheckedDir {
  constructor(
    readonly handle: FileHandle,
    /** Its real path when it was checked. */
    readonly realPath: string,
  ) {}

  /**
   * A path to `name` in this directory. On Linux it goes through the open descriptor, so a swap of
   * any directory above cannot redirect it; elsewhere it is the checked real path, and what is
   * opened through it is checked again.
   */
  child(name: string): string {
    return PROC_FD ? `${PROC_FD}/${this.handle.fd}/${name}` : path.join(this.realPath, name);
  }
}

/** The workspace an operation is confined to: its root, the root's real path, and the path as asked for (for messages). */
export interface Workspace {
  root: string;
  realRoot: string;
  requested: string;
}

const O_DIR = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

async function openDir(ws: Workspace, openAs: string): Promise<CheckedDir> {
  const handle = await open(openAs, O_DIR);
  try {
    return new CheckedDir(handle, await assertOpenedInside(ws.realRoot, handle, openAs, ws.requested, ws.root));
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** The nearest existing ancestor of `dir` (a real path) and the names missing below it. */
async function splitExisting(dir: string): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = [];
  let cur = dir;
  for (;;) {
    try {
      await lstat(cur);
      return { existing: cur, missing: missing.reverse() };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      const parent = path.dirname(cur);
      if (parent === cur) throw err;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
}

/** Opens `dir` (a real path inside the workspace), creating what is missing one checked level at a time. */
async function openCheckedDir(ws: Workspace, dir: string): Promise<CheckedDir> {
  const { existing, missing } = await splitExisting(dir);
  let current = await openDir(ws, existing);
  for (const name of missing) {
    try {
      await mkdir(current.child(name)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "EEXIST") throw err;
      });
      const next = await openDir(ws, current.child(name));
      await current.handle.close();
      current = next;
    } catch (err) {
      await current.handle.close();
      throw err;
    }
  }
  return current;
}

function notRegular(requested: string, what: string): RequestError {
  return RequestError.invalidParams({ path: requested }, `${requested} is ${what}, not a regular file: conch writes only regular files`);
}

/** What sits at the target now: its mode to keep, or a refusal for a directory, FIFO or device. */
async function existingMode(dir: CheckedDir, name: string, requested: string): Promise<number | undefined> {
  let st;
  try {
    st = await lstat(dir.child(name));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  if (st.isFile()) return st.mode & 0o777;
  if (st.isDirectory()) throw notRegular(requested, "a directory");
  // The path was resolved through its symlinks before: a link here leads nowhere, or was put there since.
  if (st.isSymbolicLink())
    throw RequestError.invalidParams(
      { path: requested },
      `${requested} is a symbolic link conch cannot follow inside the workspace; nothing was written`,
    );
  throw notRegular(requested, st.isFIFO() ? "a FIFO" : st.isSocket() ? "a socket" : "a device");
}

/** What a write replaced: the file's earlier bytes, nothing (it is new), or only the size of one too big to keep. */
export type Replaced = { kind: "file"; bytes: Buffer } | { kind: "none" } | { kind: "too_large"; size: number };

/** O_NONBLOCK and O_NOFOLLOW: what is read through a checked directory is that very regular file, and never blocks. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0) | (constants.O_NOCTTY ?? 0);

/** The bytes of regular file `name` in `dir`, or only its size past `maxBytes`. */
async function readChild(dir: CheckedDir, name: string, maxBytes: number): Promise<Replaced> {
  const file = await open(dir.child(name), READ_FLAGS);
  try {
    const st = await file.stat();
    if (!st.isFile()) throw new Error(`${name} is not a regular file`);
    if (st.size > maxBytes) return { kind: "too_large", size: st.size };
    return { kind: "file", bytes: await file.readFile() };
  } finally {
    await file.close();
  }
}

/**
 * Writes `content` to `target` (a real path already confined to the workspace) atomically: into a
 * temp file created in the checked directory, then renamed over the target. Nothing is written
 * unless the directory and the temp file are both, as opened, inside the workspace; an existing
 * file keeps its mode. With `keepUpTo`, what the write replaced is read (through the same checked
 * directory, just before the rename) and returned, up to that many bytes: undo keeps it.
 */
export async function writeConfined(
  ws: Workspace,
  target: string,
  content: string | Buffer,
  opts: { keepUpTo?: number } = {},
): Promise<Replaced | undefined> {
  const name = path.basename(target);
  const dir = await openCheckedDir(ws, path.dirname(target));
  let tmp: string | undefined;
  try {
    const mode = await existingMode(dir, name, ws.requested);
    tmp = dir.child(`.${name}.conch-${randomBytes(8).toString("hex")}`);
    const file = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode ?? 0o644);
    try {
      await assertOpenedInside(ws.realRoot, file, tmp, ws.requested, ws.root);
      await file.writeFile(content, "utf8");
      // The creation mode passed the umask; an existing file's mode is kept exactly.
      if (mode !== undefined) await file.chmod(mode);
      await file.sync();
    } finally {
      await file.close();
    }
    const replaced =
      opts.keepUpTo === undefined
        ? undefined
        : mode === undefined
          ? ({ kind: "none" } as const)
          : await readChild(dir, name, opts.keepUpTo);
    await rename(tmp, dir.child(name));
    tmp = undefined;
    return replaced;
  } finally {
    if (tmp) await unlink(tmp).catch(() => undefined);
    await dir.handle.close();
  }
}

/**
 * Reads regular file `target` (a real path confined to the workspace) through its checked
 * directory: its bytes, `none` when it is missing, or only its size past `maxBytes`. A directory,
 * link or device there is refused.
 */
export async function readConfined(ws: Workspace, target: string, maxBytes: number): Promise<Replaced> {
  const { missing } = await splitExisting(path.dirname(target));
  if (missing.length) return { kind: "none" };
  const dir = await openCheckedDir(ws, path.dirname(target));
  try {
    return await readChild(dir, path.basename(target), maxBytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "none" };
    if ((err as NodeJS.ErrnoException).code === "ELOOP") throw new Error(`${ws.requested} is a symbolic link`);
    throw err;
  } finally {
    await dir.handle.close();
  }
}

/** Removes regular file `target` (a real path confined to the workspace) through its checked directory; false when it was not there. */
export async function removeConfined(ws: Workspace, target: string): Promise<boolean> {
  const { missing } = await splitExisting(path.dirname(target));
  if (missing.length) return false;
  const dir = await openCheckedDir(ws, path.dirname(target));
  try {
    const name = path.basename(target);
    let st;
    try {
      st = await lstat(dir.child(name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
    if (!st.isFile())
      throw notRegular(ws.requested, st.isDirectory() ? "a directory" : st.isSymbolicLink() ? "a symbolic link" : "not a regular file");
    await unlink(dir.child(name));
    return true;
  } finally {
    await dir.handle.close();
  }
}
