import { readdir } from "node:fs/promises";
import path from "node:path";

/** An `@path` being typed: where its `@` is and what follows it up to the cursor. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** The `@word` the cursor is in, if any: `@` at the start or after whitespace, no whitespace after it. */
export function mentionAt(text: string, cursor: number): MentionQuery | null {
  const before = text.slice(0, cursor);
  const m = /(^|\s)@(\S*)$/.exec(before);
  if (!m) return null;
  const start = before.length - m[2].length - 1;
  // The word must end at the cursor too, or we would complete into the middle of it.
  if (cursor < text.length && !/\s/.test(text[cursor])) return null;
  return { start, query: m[2] };
}

/** The text after choosing `file` for the mention: directories keep the menu open, files end with a space. */
export function completeMention(text: string, mention: MentionQuery, file: string): { text: string; cursor: number } {
  const end = mention.start + 1 + mention.query.length;
  const insert = `@${file}${file.endsWith("/") ? "" : " "}`;
  return { text: text.slice(0, mention.start) + insert + text.slice(end), cursor: mention.start + insert.length };
}

/** Folders never worth offering: huge, generated, or version control. */
const SKIP = new Set(["node_modules", ".git"]);

export interface FileIndexOptions {
  /** How many paths to collect at most; big trees stop there. */
  maxEntries?: number;
}

/**
 * Paths under a folder for `@` completion, collected lazily: nothing is read until the first
 * search, then the tree is walked breadth-first in the background (shallow paths first, so early
 * results are the likely ones), skipping node_modules and .git, up to a cap.
 */
export class FileIndex {
  private readonly paths: string[] = [];
  private started = false;
  private done = false;
  private readonly maxEntries: number;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly root: string,
    options: FileIndexOptions = {},
  ) {
    this.maxEntries = options.maxEntries ?? 20_000;
  }

  /** Hears when more paths arrived, so an open menu can refresh. Returns the unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }

  /** Whether the walk has finished (or hit its cap). */
  get complete(): boolean {
    return this.done;
  }

  /** Paths matching `query`, best first: path prefix, then file-name prefix, then substring. Starts the walk. */
  search(query: string, limit = 8): string[] {
    this.start();
    const q = query.toLowerCase();
    const scored: { p: string; score: number }[] = [];
    for (const p of this.paths) {
      const lower = p.toLowerCase();
      // The folder already typed in full is no suggestion.
      if (lower === q) continue;
      const base = path.posix.basename(lower.endsWith("/") ? lower.slice(0, -1) : lower);
      let score: number;
      if (lower.startsWith(q)) score = 0;
      else if (base.startsWith(q)) score = 1;
      else if (lower.includes(q)) score = 2;
      else continue;
      scored.push({ p, score });
    }
    scored.sort((a, b) => a.score - b.score || depth(a.p) - depth(b.p) || a.p.length - b.p.length || a.p.localeCompare(b.p));
    return scored.slice(0, limit).map((s) => s.p);
  }

  /** Waits for the walk to finish: for tests. */
  async ready(): Promise<void> {
    this.start();
    while (!this.done) await new Promise((r) => setTimeout(r, 5));
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    void this.walk().finally(() => {
      this.done = true;
      this.changed();
    });
  }

  private async walk(): Promise<void> {
    const queue: string[] = [""];
    let dirs = 0;
    while (queue.length && this.paths.length < this.maxEntries) {
      const rel = queue.shift()!;
      let entries;
      try {
        entries = await readdir(path.join(this.root, rel), { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        if (SKIP.has(e.name)) continue;
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          this.paths.push(`${p}/`);
          queue.push(p);
        } else {
          this.paths.push(p);
        }
        if (this.paths.length >= this.maxEntries) break;
      }
      // An open menu refreshes as results arrive, but not once per folder.
      if (++dirs % 25 === 0) this.changed();
    }
  }
}

function depth(p: string): number {
  let n = 0;
  for (let i = 0; i < p.length - 1; i++) if (p[i] === "/") n++;
  return n;
}
