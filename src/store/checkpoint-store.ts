import { createHash } from "node:crypto";
import { existsSync, lstatSync, realpathSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isInside } from "../paths/is-inside.js";
import { ensurePrivateDir } from "./private-fs.js";
import { GitError, ShadowGit } from "./shadow-git.js";
import { resolveStateDir } from "./state-dir.js";

const MIB = 1024 * 1024;

/** How much a checkpoint takes on: past these, a file is left out (and said so) or the checkpoint is refused. */
export interface CheckpointLimits {
  /** Files .gitignore does not exclude that one checkpoint may have to record (a whole project, the first time). */
  files: number;
  /** A file larger than this is not kept: undo leaves it and says why. */
  fileBytes: number;
  /** New content one checkpoint may add. */
  changeBytes: number;
}

export const CHECKPOINT_LIMITS: CheckpointLimits = { files: 20_000, fileBytes: 8 * MIB, changeBytes: 256 * MIB };

/** A recorded state of the workspace: a git tree in the shadow repository, and the paths it could not hold. */
export interface Snapshot {
  tree: string;
  /** Paths left out (too large, a repository of their own): undo cannot put them back. */
  skipped: string[];
}

/** One file that differs between two snapshots: its blob before and after (absent: no such file). */
export interface TreeChange {
  path: string;
  before?: { mode: string; blob: string };
  after?: { mode: string; blob: string };
}

/** The git blob id of some bytes: what a snapshot holds for a file with this content. */
export function blobId(bytes: Buffer): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Where the checkpoints of a workspace (its real path) live: one shadow repository per workspace, in conch's state dir. */
export function checkpointDir(workspace: string, root: string = resolveStateDir()): string {
  return path.join(root, "checkpoints", createHash("sha256").update(workspace).digest("hex").slice(0, 24));
}

const ZERO = /^0+$/;

/**
 * The checkpoints of one workspace: a git repository of conch's own in the state dir
 * (`GIT_DIR` there, `GIT_WORK_TREE` the project), so the project's `.git` (a folder or a
 * worktree's file) is never touched and its history never changes. `.gitignore` is respected.
 * A snapshot records only what changed since the last one (git's index keeps the file stats),
 * so a turn in which nothing changed costs one scan (`ls-files`, one git run: the tree of an index
 * nothing wrote since its last `write-tree` is that tree). Snapshots run one at a time.
 */
export class WorkspaceCheckpoints {
  readonly dir: string;
  private readonly git: ShadowGit;
  private tail: Promise<unknown> = Promise.resolve();
  /** The snapshot queued behind the running one, not begun yet. */
  private waiting?: Promise<Snapshot | { error: string }>;
  /** The last tree written, and the index's stamp then (absent when something else may have written the index since). */
  private known?: { tree: string; index: string };

  constructor(
    readonly workspace: string,
    private readonly root: string = resolveStateDir(),
    private readonly limits: CheckpointLimits = CHECKPOINT_LIMITS,
  ) {
    this.dir = checkpointDir(workspace, root);
    this.git = new ShadowGit(path.join(this.dir, "git"), workspace);
  }

  /** Records the workspace now. Never throws: a failure is `{ error }` with words for a person. */
  snapshot(): Promise<Snapshot | { error: string }> {
    return this.queue();
  }

  /**
   * Makes the shadow repository and brings its index up to date in the background (as conch
   * starts, beside the agent's own start), so the session's first snapshots cost one scan each.
   */
  async warm(): Promise<void> {
    const snap = await this.queue();
    // A first write-tree after an update rewrites the index; a second one leaves its stamp known.
    if (!("error" in snap) && !this.known) await this.inTurn(() => this.writeTree()).catch(() => undefined);
  }

  /** Runs `work` after everything asked of the repository so far, and before what is asked later. */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private queue(): Promise<Snapshot | { error: string }> {
    // Asked for before the waiting snapshot begins its scan: that scan comes after this call too, so it serves both.
    if (this.waiting) return this.waiting;
    const run = this.inTurn(() => {
      this.waiting = undefined;
      return this.take();
    });
    this.waiting = run;
    return run;
  }

  /** The files that differ between two snapshots. */
  async changes(from: string, to: string): Promise<TreeChange[]> {
    if (from === to) return [];
    const out = (await this.git.run(["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to])).toString("utf8").split("\0");
    const changes: TreeChange[] = [];
    for (let i = 0; i + 1 < out.length; i += 2) {
      const m = /^:(\d+) (\d+) ([0-9a-f]+) ([0-9a-f]+) \w/.exec(out[i]);
      if (!m) continue;
      changes.push({
        path: out[i + 1],
        ...(ZERO.test(m[3]) ? {} : { before: { mode: m[1], blob: m[3] } }),
        ...(ZERO.test(m[4]) ? {} : { after: { mode: m[2], blob: m[4] } }),
      });
    }
    return changes;
  }

  /** The contents of blobs, by id (missing ones are absent). */
  blobs(ids: string[]): Promise<Map<string, Buffer>> {
    return this.git.blobs(ids);
  }

  /** Whether the shadow repository still holds a snapshot (it may have been deleted). */
  async has(tree: string): Promise<boolean> {
    if (!existsSync(path.join(this.git.gitDir, "HEAD"))) return false;
    try {
      await this.git.run(["cat-file", "-e", `${tree}^{tree}`]);
      return true;
    } catch {
      return false;
    }
  }

  private async take(): Promise<Snapshot | { error: string }> {
    try {
      this.ensureRepo();
      const stamp = this.indexStamp();
      const listed = (await this.locked(["ls-files", "-z", "-m", "-d", "-o", "--exclude-standard", ...this.ownState()]))
        .toString("utf8")
        .split("\0");
      const paths = [...new Set(listed.filter(Boolean))];
      if (paths.length > this.limits.files) {
        return {
          error: `the project has more than ${this.limits.files.toLocaleString("en")} files that .gitignore does not exclude (${paths.length.toLocaleString("en")} to record): too big for checkpoints, so undo covers only the files agents write through conch`,
        };
      }
      const update: string[] = [];
      const drop: string[] = [];
      const skipped: string[] = [];
      let bytes = 0;
      for (const p of paths) {
        let st;
        try {
          st = lstatSync(path.join(this.workspace, p));
        } catch {
          update.push(p.replace(/\/$/, ""));
          continue;
        }
        if (st.isDirectory()) skipped.push(p.replace(/\/$/, ""));
        else if (st.size > this.limits.fileBytes) {
          skipped.push(p);
          drop.push(p);
        } else {
          bytes += st.size;
          update.push(p);
        }
      }
      if (bytes > this.limits.changeBytes) {
        return {
          error: `${(bytes / MIB).toFixed(0)} MiB changed or not yet recorded, more than one checkpoint takes (${this.limits.changeBytes / MIB} MiB): add build output to .gitignore`,
        };
      }
      // Nothing differs from an index nobody wrote since its tree was written (checked on both sides of the scan): that tree.
      const known = this.known;
      if (!update.length && !drop.length && known && stamp === known.index && this.indexStamp() === stamp)
        return { tree: known.tree, skipped };
      if (update.length) await this.locked(["update-index", "-z", "--add", "--remove", "--stdin"], update.join("\0"));
      if (drop.length) await this.locked(["update-index", "-z", "--force-remove", "--stdin"], drop.join("\0"));
      return { tree: await this.writeTree(), skipped };
    } catch (err) {
      return { error: `the checkpoint failed (${(err as Error).message.split("\n")[0]})` };
    }
  }

  /**
   * `git write-tree`. Its tree goes with the index's stamp only when the index was not written
   * meanwhile: write-tree rewrites it itself after an update, and another conch on the same
   * workspace may have; either way the next snapshot writes the tree again.
   */
  private async writeTree(): Promise<string> {
    const before = this.indexStamp();
    const tree = (await this.locked(["write-tree"])).toString("utf8").trim();
    const after = this.indexStamp();
    this.known = before !== undefined && before === after ? { tree, index: before } : undefined;
    return tree;
  }

  /**
   * A pathspec that leaves out conch's state dir when it lies inside the workspace (`conch` run in
   * the home folder, a state dir set inside the project): its session logs and this shadow
   * repository change with every turn, so recording them would make each snapshot record the last
   * one's objects, and undo would put conch's own files back.
   */
  private ownState(): string[] {
    if (this.excluded === undefined) {
      let root: string | undefined;
      try {
        root = realpathSync(this.root);
      } catch {
        root = undefined;
      }
      const rel = root === undefined ? "" : path.relative(this.workspace, root);
      // The workspace itself as the state dir is not left out: that would leave out everything.
      this.excluded =
        root !== undefined && rel !== "" && isInside(this.workspace, root)
          ? [`:(top,exclude,literal)${rel.split(path.sep).join("/")}/`]
          : [];
    }
    return this.excluded;
  }

  private excluded?: string[];

  /** The index file as it is now (git writes a new file each time, so a new inode and times), or undefined if there is none. */
  private indexStamp(): string | undefined {
    try {
      const st = statSync(path.join(this.git.gitDir, "index"), { bigint: true });
      return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    } catch {
      return undefined;
    }
  }

  /** A new (or deleted) shadow repository is made again: the old snapshots are gone, the next ones are kept. */
  private ensureRepo(): void {
    if (existsSync(path.join(this.git.gitDir, "HEAD"))) return;
    ensurePrivateDir(this.dir);
    writeFileSync(path.join(this.dir, "workspace"), `${this.workspace}\n`, { mode: 0o600 });
    this.known = undefined;
    this.initialized = this.git.run(["init", "-q"]);
  }

  private initialized: Promise<unknown> = Promise.resolve();

  /** Runs git, waiting out another conch's index lock on the same workspace for a while. */
  private async locked(args: string[], input?: string): Promise<Buffer> {
    await this.initialized;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.git.run(args, input);
      } catch (err) {
        if (!(err instanceof GitError) || !/index\.lock/.test(err.message) || attempt >= 40) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }
}
