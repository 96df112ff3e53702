import { closeSync, readFileSync, renameSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ensurePrivateDir, fsyncDirSync, openPrivateFileSync, writeAllSync } from "./private-fs.js";
import { resolveStateDir } from "./state-dir.js";

const storeSchema = z.object({
  version: z.literal(1),
  projects: z.record(z.string(), z.object({ allow: z.array(z.object({ rule: z.string(), at: z.string() })) })),
});
type Store = z.infer<typeof storeSchema>;

/** What conch remembers for one project: the rules, or why the file could not be read (then none apply). */
export interface Remembered {
  file: string;
  allow: string[];
  problem?: string;
}

/**
 * The "always allow" answers conch remembers, per project folder (its real path), as rules in
 * conch's own state dir beside the trusted folders: a decision of this person on this machine,
 * never written into the project, so a repo cannot bring one along.
 */
export class RememberedRules {
  readonly file: string;

  constructor(root: string = resolveStateDir()) {
    this.file = path.join(root, "permission-rules.json");
  }

  /** The rules remembered for `project`. A file that does not parse gives none, and says so. */
  read(project: string): Remembered {
    const store = this.load();
    if (typeof store === "string") return { file: this.file, allow: [], problem: store };
    return { file: this.file, allow: (store.projects[project]?.allow ?? []).map((r) => r.rule) };
  }

  /** Adds rules for `project` (those it already has stay once). Throws when the file cannot be written. */
  add(project: string, rules: string[]): void {
    this.change((store) => {
      const entry = (store.projects[project] ??= { allow: [] });
      const at = new Date().toISOString();
      for (const rule of rules) if (!entry.allow.some((r) => r.rule === rule)) entry.allow.push({ rule, at });
    });
  }

  /** Removes one rule of `project`; false when it was not there. */
  remove(project: string, rule: string): boolean {
    let found = false;
    this.change((store) => {
      const entry = store.projects[project];
      if (!entry) return;
      const before = entry.allow.length;
      entry.allow = entry.allow.filter((r) => r.rule !== rule);
      found = entry.allow.length !== before;
      if (entry.allow.length === 0) delete store.projects[project];
    });
    return found;
  }

  private load(): Store | string {
    let text: string;
    try {
      text = readFileSync(this.file, "utf8");
    } catch {
      return { version: 1, projects: {} };
    }
    try {
      const parsed = storeSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
      return `${this.file} is not a rules file conch wrote (${parsed.error.issues[0]?.message ?? "unknown shape"}): none of its rules apply`;
    } catch (err) {
      return `${this.file} is not valid JSON (${(err as Error).message}): none of its rules apply`;
    }
  }

  private change(edit: (store: Store) => void): void {
    const store = this.load();
    // A damaged file is not replaced silently: the person may want what is in it.
    if (typeof store === "string") throw new Error(store);
    edit(store);
    ensurePrivateDir(path.dirname(this.file));
    const temp = `${this.file}.${process.pid}.tmp`;
    const fd = openPrivateFileSync(temp, "w");
    try {
      writeAllSync(fd, `${JSON.stringify(store, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
    fsyncDirSync(path.dirname(this.file));
  }
}
