import { constants, type Stats } from "node:fs";
import { open, realpath, type FileHandle } from "node:fs/promises";
import {
  RequestError,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type WriteTextFileRequest,
  type WriteTextFileResponse,
} from "@agentclientprotocol/sdk";
import { writeConfined, type Replaced } from "./confined-write.js";
import { readLineWindow, ReadTooLargeError } from "./read-window.js";
import { assertOpenedInside, confinePath } from "./workspace-path.js";

/**
 * The most text one `fs/read_text_file` returns (UTF-8 bytes). A larger read is refused, not cut
 * short: an agent that edits what it believes is the whole file would destroy the rest.
 */
export const MAX_READ_BYTES = 10 * 1024 * 1024;

/** O_NONBLOCK: opening a FIFO must not wait for a writer (and hold a thread-pool thread meanwhile). */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function tooLarge(requested: string, bytes: number, maxBytes: number, whole: boolean): RequestError {
  const message = whole
    ? `${requested} is ${mib(bytes)}, more than one read returns (${mib(maxBytes)}): read it in parts with line and limit`
    : `the requested lines of ${requested} hold more than one read returns (${mib(maxBytes)}): ask for fewer lines with limit`;
  return RequestError.invalidParams({ path: requested, maxBytes }, message);
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  return "a device";
}

/** Serves `fs/read_text_file`: whole file, or `limit` lines from 1-based `line`, from a regular file inside the workspace. */
export async function readTextFile(
  root: string,
  req: ReadTextFileRequest,
  opts: { missingAsEmpty?: boolean; maxBytes?: number } = {},
): Promise<ReadTextFileResponse> {
  const maxBytes = opts.maxBytes ?? MAX_READ_BYTES;
  const file = await confinePath(root, req.path);
  let handle: FileHandle;
  try {
    handle = await open(file, READ_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && opts.missingAsEmpty) return { content: "" };
    if (code === "ENOENT") throw RequestError.resourceNotFound(req.path);
    if (code === "ENXIO")
      throw RequestError.invalidParams({ path: req.path }, `${req.path} is a socket, not a regular file: conch reads only regular files`);
    throw RequestError.internalError({ path: req.path }, (err as Error).message);
  }
  try {
    // What was opened is checked, not the path: a symlink swapped since confinePath cannot lead out.
    await assertOpenedInside(await realpath(root), handle, file, req.path, root);
    const st = await handle.stat();
    if (!st.isFile()) {
      throw RequestError.invalidParams(
        { path: req.path },
        `${req.path} is ${kindOf(st)}, not a regular file: conch reads only regular files`,
      );
    }
    const whole = req.line == null && req.limit == null;
    if (whole && st.size > maxBytes) throw tooLarge(req.path, st.size, maxBytes, true);
    return { content: await readLineWindow(handle, req, maxBytes) };
  } catch (err) {
    if (err instanceof ReadTooLargeError) throw tooLarge(req.path, err.bytes, maxBytes, false);
    if (err instanceof RequestError) throw err;
    throw RequestError.internalError({ path: req.path }, (err as Error).message);
  } finally {
    await handle.close();
  }
}

/** A file an agent wrote: its real path, what the write replaced, and what it wrote. */
export interface WrittenFile {
  path: string;
  replaced: Replaced;
  content: string;
}

/** How `writeTextFile` reports a write: what it replaced is kept up to `keepUpTo` bytes (undo). */
export interface WriteObserver {
  keepUpTo: number;
  written(file: WrittenFile): void | Promise<void>;
}

/**
 * Serves `fs/write_text_file` atomically (a temp file in the checked directory, then rename), inside
 * the workspace only. `observer` hears of each write, with what it replaced, before the agent is
 * answered.
 */
export async function writeTextFile(root: string, req: WriteTextFileRequest, observer?: WriteObserver): Promise<WriteTextFileResponse> {
  const file = await confinePath(root, req.path);
  if (typeof req.content !== "string") throw RequestError.invalidParams(undefined, "content must be a string");
  let replaced: Replaced | undefined;
  try {
    replaced = await writeConfined({ root, realRoot: await realpath(root), requested: req.path }, file, req.content, {
      keepUpTo: observer?.keepUpTo,
    });
  } catch (err) {
    if (err instanceof RequestError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw RequestError.resourceNotFound(req.path);
    if (code === "ENOTDIR") throw RequestError.invalidParams({ path: req.path }, `a parent of ${req.path} is not a directory`);
    throw RequestError.internalError({ path: req.path }, (err as Error).message);
  }
  if (observer && replaced) {
    try {
      await observer.written({ path: file, replaced, content: req.content });
    } catch {
      // The file is written: the observer's bookkeeping cannot fail the agent's write.
    }
  }
  return {};
}
