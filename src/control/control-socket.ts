import { randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, lstatSync, mkdirSync, readFileSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPrivateFileSync, writeAllSync } from "../store/private-fs.js";

/*
 * Who may connect to a running conch's control socket: only its own user. Node has no SO_PEERCRED
 * (Linux) or getpeereid (BSD, macOS) to ask a connection for its uid, so the check is made by the
 * file system, twice over:
 * - the socket lives in a directory that is the user's own, mode 0700, not a symlink (checked
 *   after creating it, and again before every listen): connecting to a Unix socket needs search
 *   permission on every directory of its path, which no other uid has (root aside, who can read
 *   anything of the user's anyway); the socket file itself is 0600;
 * - a connection proves it is the user's before anything it sends is acted on: its first line
 *   carries a random token that conch wrote beside the socket in a 0600 file, which only that uid
 *   can read. A peer that reached the socket any other way (a directory made too open by hand, a
 *   descriptor passed along) cannot know it.
 */

/** sun_path holds 108 bytes on Linux, 104 on macOS: a longer path cannot be bound. */
const MAX_SOCKET_PATH = 100;
const PRIVATE_DIR_MODE = 0o700;

/** Where a running conch listens, and the secret a connection must show. */
export interface ControlEndpoint {
  socketPath: string;
  tokenPath: string;
  token: string;
}

/** The token file that goes with a socket. */
export function tokenPathOf(socketPath: string): string {
  return socketPath.replace(/\.sock$/, "") + ".token";
}

/**
 * Makes `dir` (0700, created if missing) and checks it is the user's own directory and closed to
 * everyone else: not a symlink, owned by this uid, no group or other bits. Throws with a sentence
 * for the person when it is not.
 */
export function ensureOwnPrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory (a symlink?): conch will not listen there`);
  if (uid !== undefined && st.uid !== uid) throw new Error(`${dir} belongs to another user (uid ${st.uid}): conch will not listen there`);
  if ((st.mode & 0o077) !== 0)
    throw new Error(`${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)}): conch will not listen there`);
}

/** The folders a control socket may live in, best first: the state dir's, then a per-user one under the temp dir (short paths). */
function candidateDirs(stateRoot: string): string[] {
  const uid = process.getuid?.() ?? "user";
  const runtime = process.env.XDG_RUNTIME_DIR;
  return [join(stateRoot, "control"), ...(runtime ? [join(runtime, "conch")] : []), join(tmpdir(), `conch-${uid}`)];
}

/**
 * Picks the socket's path for this process (`<pid>.sock`) in the first candidate folder whose path
 * fits and that is the user's own and private, and writes the token beside it (0600).
 */
export function prepareEndpoint(stateRoot: string, pid = process.pid): ControlEndpoint {
  const problems: string[] = [];
  for (const dir of candidateDirs(stateRoot)) {
    const socketPath = join(dir, `${pid}.sock`);
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
      problems.push(`${socketPath} is too long for a socket`);
      continue;
    }
    try {
      ensureOwnPrivateDir(dir);
    } catch (err) {
      problems.push((err as Error).message);
      continue;
    }
    removeStale(socketPath);
    const token = randomBytes(32).toString("hex");
    const tokenPath = tokenPathOf(socketPath);
    const fd = openPrivateFileSync(tokenPath, "w");
    try {
      writeAllSync(fd, token);
    } finally {
      closeSync(fd);
    }
    return { socketPath, tokenPath, token };
  }
  throw new Error(`no private place for the control socket: ${problems.join("; ")}`);
}

/** A socket or token left by a conch that had this pid before (it died without cleaning up). */
function removeStale(socketPath: string): void {
  for (const p of [socketPath, tokenPathOf(socketPath)]) {
    try {
      unlinkSync(p);
    } catch {
      /* nothing there */
    }
  }
}

/** Removes the endpoint's files; never throws. */
export function removeEndpoint(endpoint: ControlEndpoint): void {
  removeStale(endpoint.socketPath);
}

/** Reads the token of a socket, as the client does (only the socket's owner can). */
export function readToken(socketPath: string): string {
  return readFileSync(tokenPathOf(socketPath), "utf8").trim();
}

/** Compares a token shown by a connection with ours, in constant time. */
export function tokenMatches(shown: unknown, token: string): boolean {
  if (typeof shown !== "string") return false;
  const a = Buffer.from(shown);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
