import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  RequestError,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type WriteTextFileRequest,
  type WriteTextFileResponse,
} from "@agentclientprotocol/sdk";
import { confinePath } from "./workspace-path.js";

/** Serves `fs/read_text_file`: whole file, or `limit` lines from 1-based `line`. */
export async function readTextFile(root: string, req: ReadTextFileRequest, opts: { missingAsEmpty?: boolean } = {}): Promise<ReadTextFileResponse> {
  const file = await confinePath(root, req.path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && opts.missingAsEmpty) return { content: "" };
    if (code === "ENOENT") throw RequestError.resourceNotFound(req.path);
    if (code === "EISDIR") throw RequestError.invalidParams({ path: req.path }, "is a directory");
    throw RequestError.internalError({ path: req.path }, (err as Error).message);
  }
  if (req.line == null && req.limit == null) return { content: text };
  const lines = text.split("\n");
  const start = Math.max(0, (req.line ?? 1) - 1);
  const end = req.limit == null ? lines.length : start + Math.max(0, req.limit);
  return { content: lines.slice(start, end).join("\n") };
}

/** Serves `fs/write_text_file` atomically: a temp file beside the target, then rename. */
export async function writeTextFile(root: string, req: WriteTextFileRequest): Promise<WriteTextFileResponse> {
  const file = await confinePath(root, req.path);
  if (typeof req.content !== "string") throw RequestError.invalidParams(undefined, "content must be a string");
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.conch-${randomBytes(4).toString("hex")}`);
  let mode: number | undefined;
  try {
    mode = (await stat(file)).mode & 0o777;
  } catch {
    mode = undefined;
  }
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(tmp, req.content, { encoding: "utf8", mode: mode ?? 0o644, flush: true });
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw RequestError.resourceNotFound(path.dirname(req.path));
    throw RequestError.internalError({ path: req.path }, (err as Error).message);
  }
  return {};
}
