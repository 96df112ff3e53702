import { spawn } from "node:child_process";

/**
 * The shadow repository's settings, given to every command rather than written by `git config`
 * (two runs fewer when a repository is made): files are recorded byte for byte, and no command
 * starts a garbage collection of its own.
 */
const SETTINGS = ["-c", "core.autocrlf=false", "-c", "gc.auto=0"];

/** A git command that failed, with what git said. */
export class GitError extends Error {}

/**
 * Runs git against one shadow repository: `GIT_DIR` in conch's state dir, `GIT_WORK_TREE` the
 * project. The user's and the system's git config are not read (no hooks, no fsmonitor, no
 * filters of theirs), and no `GIT_*` of the caller's environment leaks in: the project's own
 * `.git` is never read or written.
 */
export class ShadowGit {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
  ) {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
    this.env = {
      ...env,
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workTree,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_TERMINAL_PROMPT: "0",
      GIT_OPTIONAL_LOCKS: "0",
      LC_ALL: "C",
    };
  }

  /** Runs `git args…` in the work tree; resolves with stdout, rejects with a GitError holding stderr. */
  run(args: string[], input?: Buffer | string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = spawn("git", [...SETTINGS, ...args], { cwd: this.workTree, env: this.env, stdio: ["pipe", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stderr.on("data", (b: Buffer) => err.push(b));
      child.on("error", (e) => reject(new GitError((e as NodeJS.ErrnoException).code === "ENOENT" ? "git is not installed" : e.message)));
      child.on("close", (code) => {
        if (code === 0) resolve(Buffer.concat(out));
        else reject(new GitError(Buffer.concat(err).toString("utf8").trim() || `git ${args[0]} exited with ${code}`));
      });
      child.stdin.on("error", () => undefined);
      child.stdin.end(input);
    });
  }

  /** The contents of blobs by id, in one `cat-file --batch`; a missing object is absent from the map. */
  async blobs(ids: string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    if (ids.length === 0) return found;
    const out = await this.run(["cat-file", "--batch"], ids.join("\n") + "\n");
    let at = 0;
    for (const id of ids) {
      const nl = out.indexOf(10, at);
      if (nl < 0) break;
      const header = out.subarray(at, nl).toString("utf8");
      at = nl + 1;
      const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
      if (!m) continue;
      const size = Number(m[3]);
      if (m[2] === "blob") found.set(id, out.subarray(at, at + size));
      at += size + 1;
    }
    return found;
  }
}
