import { randomBytes } from "node:crypto";
import { open, readdir, readFile, rename, unlink } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { acquirePidLock } from "./pid-lock.js";
import { PreImageStore } from "./pre-image-store.js";
import { errorCode, fsyncDirSync, PRIVATE_FILE_MODE } from "./private-fs.js";
import { logFilesIn, recordFromLog } from "./record-from-log.js";
import { acquireSessionLock } from "./session-lock.js";
import { lookupSession, type SessionLookup } from "./session-lookup.js";
import { ensureStateDir, fileNameFor, indexPath, resolveStateDir, sessionLogPath, sessionsDir } from "./state-dir.js";

/** One session as listed by `conch sessions` and found by `--resume`. */
export interface SessionRecord {
  id: string;
  /** The agent preset name, e.g. "claude" or "demo". */
  agent: string;
  /** The command that was spawned, so a resume can start the same agent even if presets change. */
  agentCommand: string[];
  cwd: string;
  title?: string;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
  lastStopReason?: string;
  messageCount: number;
  /**
   * The control socket of the conch that runs (or last ran) the session: `conch attach --write`
   * connects there. Only good while that conch runs; the socket's hello says which session it runs.
   */
  control?: string;
}

/** A change to one record; fields left out (or undefined) keep their stored value. */
export type SessionRecordUpdate = Pick<SessionRecord, "id"> & Partial<Omit<SessionRecord, "id">>;

/** How long an index update waits for another conch process before giving up. */
const INDEX_LOCK_TIMEOUT_MS = 10_000;
/** An index lock older than this belongs to a hung or vanished process (updates take ms). */
const INDEX_LOCK_STALE_MS = 30_000;

const INDEX_VERSION = 1;
const TEMP_FILE = /^index\.json\..+\.tmp$/;

/**
 * Create or update the record `update.id` and return it. `updatedAt` defaults to now; a new
 * record needs `agent`, `agentCommand` and `cwd`.
 */
export async function upsertSession(update: SessionRecordUpdate, root: string = resolveStateDir()): Promise<SessionRecord> {
  return withIndexLock(root, async () => {
    const read = await readIndex(root);
    const records = read.records;
    const position = records.findIndex((record) => record.id === update.id);
    const now = new Date().toISOString();
    const merged = mergeRecord(position >= 0 ? records[position] : undefined, update, now);
    if (position >= 0) records[position] = merged;
    else records.push(merged);
    await replaceIndex(root, read, records);
    return merged;
  });
}

/** Every session, newest first; with `cwd`, only those started in that directory. */
export async function listSessions(filter: { cwd?: string } = {}, root: string = resolveStateDir()): Promise<SessionRecord[]> {
  const { records } = await readIndex(root);
  const cwd = filter.cwd === undefined ? undefined : resolve(filter.cwd);
  return records.filter((record) => cwd === undefined || resolve(record.cwd) === cwd).sort(newestFirst);
}

/** Resolve a session id or a unique prefix of one. */
export async function findSession(idOrPrefix: string, root: string = resolveStateDir()): Promise<SessionLookup<SessionRecord>> {
  return lookupSession(await listSessions({}, root), idOrPrefix);
}

/** The most recently updated session started in `cwd`, for a bare `--resume`. */
export async function latestInCwd(cwd: string, root: string = resolveStateDir()): Promise<SessionRecord | undefined> {
  return (await listSessions({ cwd }, root))[0];
}

/**
 * Remove session `id`'s record and event log; false if there was neither. Refuses while another
 * conch process has the session open, since it would recreate the log under our feet.
 */
export async function deleteSession(id: string, root: string = resolveStateDir()): Promise<boolean> {
  ensureStateDir(root);
  const sessionLock = acquireSessionLock(id, root);
  if (!sessionLock.ok) {
    const holder = sessionLock.heldByPid === undefined ? "another conch process" : `conch process ${sessionLock.heldByPid}`;
    throw new Error(`Session ${id} is open in ${holder}; close it there before deleting it.`);
  }
  try {
    return await withIndexLock(root, async () => {
      const read = await readIndex(root);
      const kept = read.records.filter((record) => record.id !== id);
      const hadRecord = kept.length !== read.records.length;
      if (hadRecord) await replaceIndex(root, read, kept);
      const hadLog = await unlinkIfPresent(sessionLogPath(id, root));
      new PreImageStore(root).remove(id);
      return hadRecord || hadLog;
    });
  } finally {
    sessionLock.release();
  }
}

function mergeRecord(existing: SessionRecord | undefined, update: SessionRecordUpdate, now: string): SessionRecord {
  const defined = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)) as SessionRecordUpdate;
  if (existing) {
    const merged = { ...existing, updatedAt: now, ...defined };
    return { ...merged, cwd: resolve(merged.cwd) };
  }
  const { agent, agentCommand, cwd } = defined;
  if (agent === undefined || agentCommand === undefined || cwd === undefined) {
    throw new Error(`Cannot record new session ${update.id}: agent, agentCommand and cwd are required.`);
  }
  return {
    createdAt: now,
    updatedAt: now,
    messageCount: 0,
    ...defined,
    agent,
    agentCommand,
    cwd: resolve(cwd),
  };
}

function newestFirst(a: SessionRecord, b: SessionRecord): number {
  return Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || Date.parse(b.createdAt) - Date.parse(a.createdAt) || a.id.localeCompare(b.id);
}

/** Run a read-modify-write of the index while holding `index.lock`, so no process loses another's update. */
async function withIndexLock<R>(root: string, body: () => Promise<R>): Promise<R> {
  ensureStateDir(root);
  const release = await acquirePidLock(join(root, "index.lock"), {
    timeoutMs: INDEX_LOCK_TIMEOUT_MS,
    staleAfterMs: INDEX_LOCK_STALE_MS,
    description: "the session index",
  });
  try {
    return await body();
  } finally {
    release();
  }
}

/** The index as read, with what had to be recovered from the session logs to make it whole. */
interface IndexRead {
  records: SessionRecord[];
  /** Why the index file could not be used, when it could not: its records were rebuilt from the logs. */
  damaged?: string;
  /** Sessions whose log was there but whose record was not (an index write that failed). */
  recovered: number;
}

/**
 * The index, made whole from the session logs: a damaged or missing index is rebuilt from them,
 * and a log whose record is missing (the index could not be written, say on a full disk) adds
 * its record back. The logs are the truth; the index is a cache of them.
 */
async function readIndex(root: string): Promise<IndexRead> {
  const path = indexPath(root);
  let records: SessionRecord[] = [];
  let damaged: string | undefined;
  let text: string | undefined;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
  if (text !== undefined) {
    try {
      const sessions = (JSON.parse(text) as { sessions?: unknown } | null)?.sessions;
      if (!Array.isArray(sessions)) damaged = "it has no session list";
      // A record this version cannot read is dropped from view rather than failing every command.
      else records = sessions.filter(isSessionRecord);
    } catch (error) {
      damaged = error instanceof Error ? error.message : String(error);
    }
  }
  const known = new Set(records.map((record) => `${fileNameFor(record.id)}.jsonl`));
  let recovered = 0;
  for (const log of logFilesIn(sessionsDir(root))) {
    if (known.has(basename(log))) continue;
    let record: SessionRecord | undefined;
    try {
      record = recordFromLog(log);
    } catch {
      continue; // unreadable now (deleted meanwhile): it simply is not listed
    }
    if (!record || records.some((r) => r.id === record.id)) continue;
    records.push(record);
    if (!damaged) recovered++;
  }
  return { records, damaged, recovered };
}

/** Writes `records` as the new index; a damaged index file is first kept aside, for the user to look at. */
async function replaceIndex(root: string, read: IndexRead, records: SessionRecord[]): Promise<string | undefined> {
  let keptAs: string | undefined;
  if (read.damaged) {
    keptAs = `${indexPath(root)}.damaged-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await rename(indexPath(root), keptAs).catch(() => (keptAs = undefined));
  }
  await writeIndex(root, records);
  return keptAs;
}

/**
 * Repairs the index on disk if it needs it (damaged, or missing records whose logs exist) and says
 * what was done, for `conch sessions` to tell the user; undefined when the index was whole.
 */
export async function repairIndex(root: string = resolveStateDir()): Promise<string | undefined> {
  return withIndexLock(root, async () => {
    const read = await readIndex(root);
    if (!read.damaged && read.recovered === 0) return undefined;
    const keptAs = await replaceIndex(root, read, read.records);
    const n = read.records.length;
    if (read.damaged) {
      return `the session index was damaged (${read.damaged}); it was rebuilt from ${n} session log${n === 1 ? "" : "s"}${keptAs ? `, and the damaged file kept as ${keptAs}` : ""}`;
    }
    return `${read.recovered} session${read.recovered === 1 ? " was" : "s were"} missing from the index and ${read.recovered === 1 ? "was" : "were"} recovered from ${read.recovered === 1 ? "its log" : "their logs"}`;
  });
}

function isSessionRecord(value: unknown): value is SessionRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.id === "string" &&
    typeof record.agent === "string" &&
    Array.isArray(record.agentCommand) &&
    record.agentCommand.every((part) => typeof part === "string") &&
    typeof record.cwd === "string" &&
    typeof record.createdAt === "string" &&
    typeof record.updatedAt === "string" &&
    typeof record.messageCount === "number"
  );
}

/**
 * Replace the index atomically: write a temp file, fsync, rename over the old one. A crash at
 * any point leaves either the old or the new index, never a torn one.
 */
async function writeIndex(root: string, records: SessionRecord[]): Promise<void> {
  await removeAbandonedTempFiles(root);
  const path = indexPath(root);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const body = `${JSON.stringify({ version: INDEX_VERSION, sessions: records }, null, 2)}\n`;
  const handle = await open(temp, "wx", PRIVATE_FILE_MODE);
  try {
    await handle.chmod(PRIVATE_FILE_MODE);
    await handle.writeFile(body, "utf8");
    await handle.sync();
  } catch (error) {
    await handle.close();
    await unlinkIfPresent(temp);
    throw error;
  }
  await handle.close();
  await rename(temp, path);
  fsyncDirSync(root);
}

/** Temp files left by a writer that crashed before its rename; safe to drop while we hold the lock. */
async function removeAbandonedTempFiles(root: string): Promise<void> {
  const names = await readdir(root);
  await Promise.all(names.filter((name) => TEMP_FILE.test(name)).map((name) => unlinkIfPresent(join(root, name))));
}

async function unlinkIfPresent(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (errorCode(error) === "ENOENT") return false;
    throw error;
  }
}
