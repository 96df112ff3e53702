import { chmodSync, closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, writeSync } from "node:fs";

/** Mode for every file conch stores: transcripts can hold secrets, so only the owner reads them. */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode for every directory conch stores into. */
const PRIVATE_DIR_MODE = 0o700;

/** Create `dir` (and missing parents) and force it to 0700 whatever the umask is. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  // mkdir's mode is filtered by the umask and ignored for a directory that already exists.
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Open `path` with `flags` (creating it if the flags say so) and force it to 0600. */
export function openPrivateFileSync(path: string, flags: string): number {
  const fd = openSync(path, flags, PRIVATE_FILE_MODE);
  try {
    // The creation mode is filtered by the umask; fchmod is not.
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Write all of `data` to `fd`: writeSync may write less than asked. */
export function writeAllSync(fd: number, data: string | Uint8Array): void {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let offset = 0;
  while (offset < bytes.length) {
    offset += writeSync(fd, bytes, offset, bytes.length - offset);
  }
}

/** Make a directory's entries (a new or renamed file) durable; best effort where unsupported. */
export function fsyncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms and filesystems cannot fsync a directory; the data itself is already synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The `code` of a Node system error, if `error` is one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const { code } = error as { code: unknown };
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}
