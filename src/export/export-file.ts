import { closeSync, existsSync, renameSync, unlinkSync } from "node:fs";
import path from "node:path";
import { errorCode, openPrivateFileSync, writeAllSync } from "../store/private-fs.js";

/** An export that was not written, with the reason in the user's terms. */
export class ExportError extends Error {}

/** `2025-01-31`, in local time: the day a person would name. */
function localDate(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** `conch-<first 8 of the id>-<date>.md`: the name /export picks when none is given. */
export function defaultExportName(sessionId: string, at: number): string {
  const prefix = sessionId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 8) || "session";
  return `conch-${prefix}-${localDate(at)}.md`;
}

/** The default name in `dir`, numbered (`-2`, `-3`, …) past the files already there: a default never replaces anything. */
export function freeExportPath(dir: string, sessionId: string, at: number, exists: (p: string) => boolean = existsSync): string {
  const base = defaultExportName(sessionId, at).replace(/\.md$/, "");
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, n === 1 ? `${base}.md` : `${base}-${n}.md`);
    if (!exists(candidate)) return candidate;
  }
}

/**
 * Writes an export (0600, like everything conch writes: a transcript can hold secrets). A file
 * already at `file` is never replaced unless `force` says so; then the new text goes to a temp
 * file renamed over it, so a symlink there is replaced rather than written through. Returns
 * whether something was replaced.
 */
export function writeExport(file: string, text: string, force: boolean): { replaced: boolean } {
  const replaced = existsSync(file);
  if (replaced && !force) throw new ExportError(`${file} already exists: give another name, or add --force to replace it`);
  const target = replaced ? `${file}.conch-${process.pid}.tmp` : file;
  let fd: number;
  try {
    fd = openPrivateFileSync(target, "wx");
  } catch (err) {
    if (errorCode(err) === "EEXIST") throw new ExportError(`${file} already exists: give another name, or add --force to replace it`);
    throw new ExportError(`cannot write ${file}: ${(err as Error).message}`);
  }
  try {
    writeAllSync(fd, text);
  } catch (err) {
    closeSync(fd);
    unlinkSync(target);
    throw new ExportError(`cannot write ${file}: ${(err as Error).message}`);
  }
  closeSync(fd);
  if (target !== file) renameSync(target, file);
  return { replaced };
}
