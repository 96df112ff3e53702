import { createHash } from "node:crypto";
import { closeSync, existsSync, fsyncSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, errorCode, fsyncDirSync, openPrivateFileSync, writeAllSync } from "./private-fs.js";
import { preImageDirPath, resolveStateDir } from "./state-dir.js";

const MIB = 1024 * 1024;

/** A file larger than this is not kept: undo cannot put it back, and says so. */
export const PRE_IMAGE_MAX_FILE_BYTES = 8 * MIB;

/** What one session keeps at most; past it, the contents used longest ago go first. */
export const PRE_IMAGE_MAX_SESSION_BYTES = 64 * MIB;

/** The sha256 of some bytes, in hex: the name a pre-image is kept under, and how events name content. */
export function contentHash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** How a `put` went: kept under its hash, or not kept, and why (for a person). */
export type PutResult = { kept: true; sha256: string } | { kept: false; sha256: string; why: string };

interface Entry {
  bytes: number;
  usedAt: number;
}

const HASH_NAME = /^[0-9a-f]{64}$/;

/**
 * The contents that agents' writes replaced, kept per session so `/undo` can put them back:
 * `sessions/<id>.undo/<sha256>`, each file 0600 in a 0700 folder, named by its content's hash (the
 * same content written over twice is kept once). Bounded: a file over
 * {@link PRE_IMAGE_MAX_FILE_BYTES} is not kept, and a session keeps at most
 * {@link PRE_IMAGE_MAX_SESSION_BYTES}, dropping the contents used longest ago first (a content
 * written over again counts as used again). What is read back is checked against its hash.
 */
export class PreImageStore {
  /** Per session: what its folder holds, read from disk once. */
  private readonly sessions = new Map<string, Map<string, Entry>>();

  constructor(
    private readonly root: string = resolveStateDir(),
    private readonly limits = { fileBytes: PRE_IMAGE_MAX_FILE_BYTES, sessionBytes: PRE_IMAGE_MAX_SESSION_BYTES },
  ) {}

  /** Keeps `bytes` for session `sessionId`. Never throws: a failure is a `why`. */
  put(sessionId: string, bytes: Buffer): PutResult {
    const sha256 = contentHash(bytes);
    if (bytes.length > this.limits.fileBytes) {
      return { kept: false, sha256, why: tooLargeToKeep(bytes.length, this.limits.fileBytes) };
    }
    try {
      const dir = preImageDirPath(sessionId, this.root);
      const entries = this.entries(sessionId);
      const now = Date.now();
      const file = join(dir, sha256);
      if (entries.has(sha256) && existsSync(file)) {
        utimesSync(file, new Date(now), new Date(now));
      } else {
        ensurePrivateDir(dir);
        const tmp = `${file}.tmp-${process.pid}`;
        const fd = openPrivateFileSync(tmp, "w");
        try {
          writeAllSync(fd, bytes);
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        renameSync(tmp, file);
        fsyncDirSync(dir);
      }
      entries.set(sha256, { bytes: bytes.length, usedAt: now });
      this.evict(sessionId, sha256);
      return { kept: true, sha256 };
    } catch (err) {
      return { kept: false, sha256, why: `the undo store could not keep it (${errorCode(err) ?? (err as Error).message})` };
    }
  }

  /** The content kept under `sha256`, or undefined when it is not kept (any more) or does not match its hash. */
  get(sessionId: string, sha256: string): Buffer | undefined {
    if (!HASH_NAME.test(sha256)) return undefined;
    try {
      const bytes = readFileSync(join(preImageDirPath(sessionId, this.root), sha256));
      return contentHash(bytes) === sha256 ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /** Removes session `sessionId`'s whole store. */
  remove(sessionId: string): void {
    rmSync(preImageDirPath(sessionId, this.root), { recursive: true, force: true });
    this.sessions.delete(sessionId);
  }

  /** How many bytes session `sessionId` keeps now. */
  size(sessionId: string): number {
    let total = 0;
    for (const e of this.entries(sessionId).values()) total += e.bytes;
    return total;
  }

  private entries(sessionId: string): Map<string, Entry> {
    let entries = this.sessions.get(sessionId);
    if (entries) return entries;
    entries = new Map();
    const dir = preImageDirPath(sessionId, this.root);
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // No folder yet: nothing kept.
    }
    for (const name of names) {
      if (!HASH_NAME.test(name)) continue;
      try {
        const st = statSync(join(dir, name));
        if (st.isFile()) entries.set(name, { bytes: st.size, usedAt: st.mtimeMs });
      } catch {
        // Gone meanwhile.
      }
    }
    this.sessions.set(sessionId, entries);
    return entries;
  }

  /** Drops the contents used longest ago until the session is within its bound; `keep` stays. */
  private evict(sessionId: string, keep: string): void {
    const entries = this.entries(sessionId);
    let total = this.size(sessionId);
    if (total <= this.limits.sessionBytes) return;
    const oldest = [...entries.entries()].filter(([sha]) => sha !== keep).sort((a, b) => a[1].usedAt - b[1].usedAt);
    const dir = preImageDirPath(sessionId, this.root);
    for (const [sha, e] of oldest) {
      if (total <= this.limits.sessionBytes) break;
      try {
        unlinkSync(join(dir, sha));
      } catch {
        // Already gone.
      }
      entries.delete(sha);
      total -= e.bytes;
    }
  }
}

/** Why a file of `bytes` is not kept, for a person. */
export function tooLargeToKeep(bytes: number, limit = PRE_IMAGE_MAX_FILE_BYTES): string {
  return `it was ${mib(bytes)}, more than undo keeps of one file (${mib(limit)})`;
}

function mib(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}
