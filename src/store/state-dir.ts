import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { xdgCache, xdgState } from "xdg-basedir";
import { ensurePrivateDir } from "./private-fs.js";

/**
 * Where conch keeps its durable state: `$CONCH_STATE_DIR` if set (tests and portable setups),
 * else `$XDG_STATE_HOME/conch`, else `~/.local/state/conch`.
 */
export function resolveStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.CONCH_STATE_DIR;
  if (override) return resolve(override);
  // xdg-basedir reads the environment once at import; an explicit env (tests) wins over it.
  const base =
    env === process.env ? (xdgState ?? join(homedir(), ".local", "state")) : (env.XDG_STATE_HOME ?? join(homedir(), ".local", "state"));
  return join(base, "conch");
}

/** Create the state dir with its `sessions/` and `logs/` subdirs, all 0700; returns `root`. */
export function ensureStateDir(root: string = resolveStateDir()): string {
  ensurePrivateDir(root);
  ensurePrivateDir(sessionsDir(root));
  ensurePrivateDir(logsDir(root));
  return root;
}

/** The folder holding one event log and one lock file per session. */
export function sessionsDir(root: string = resolveStateDir()): string {
  return join(root, "sessions");
}

/** The folder for agent stderr logs. */
function logsDir(root: string = resolveStateDir()): string {
  return join(root, "logs");
}

/** The session index file. */
export function indexPath(root: string = resolveStateDir()): string {
  return join(root, "index.json");
}

/** The append-only event log of session `id`. */
export function sessionLogPath(id: string, root: string = resolveStateDir()): string {
  return join(sessionsDir(root), `${fileNameFor(id)}.jsonl`);
}

/** The lock file that marks session `id` as open in some conch process. */
export function sessionLockPath(id: string, root: string = resolveStateDir()): string {
  return join(sessionsDir(root), `${fileNameFor(id)}.lock`);
}

/** The folder of session `id`'s undo store: what the agent's writes replaced, one file per content hash. */
export function preImageDirPath(id: string, root: string = resolveStateDir()): string {
  return join(sessionsDir(root), `${fileNameFor(id)}.undo`);
}

/** Where the stderr of the agent serving `sessionKey` is logged. */
export function agentLogPath(sessionKey: string, root: string = resolveStateDir()): string {
  return join(logsDir(root), `${fileNameFor(sessionKey)}.log`);
}

const MAX_FILE_NAME_LENGTH = 200;

/**
 * A file name for an id that came from an agent, so it may hold `/`, `..` or anything else:
 * bytes outside `[A-Za-z0-9._-]` (and a leading dot) are percent-encoded, which stays readable
 * for ordinary ids and cannot escape the folder or collide.
 */
export function fileNameFor(id: string): string {
  if (id.length === 0) throw new Error("A session id cannot be empty.");
  let name = "";
  for (const byte of Buffer.from(id, "utf8")) {
    const isPlain =
      (byte >= 0x30 && byte <= 0x39) || // 0-9
      (byte >= 0x41 && byte <= 0x5a) || // A-Z
      (byte >= 0x61 && byte <= 0x7a) || // a-z
      byte === 0x5f || // _
      byte === 0x2d || // -
      (byte === 0x2e && name.length > 0); // . except first
    name += isPlain ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  if (name.length > MAX_FILE_NAME_LENGTH) {
    throw new Error(`Session id is too long to store (${id.length} characters): ${id.slice(0, 40)}…`);
  }
  return name;
}

/**
 * Where `conch agents --registry --refresh` keeps the registry it fetched: beside the state when
 * `$CONCH_STATE_DIR` is set (tests, portable setups), else `$XDG_CACHE_HOME/conch/registry.json`.
 */
export function registryCachePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CONCH_STATE_DIR) return join(resolve(env.CONCH_STATE_DIR), "registry.json");
  const base = env === process.env ? (xdgCache ?? join(homedir(), ".cache")) : (env.XDG_CACHE_HOME ?? join(homedir(), ".cache"));
  return join(base, "conch", "registry.json");
}
