import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";

/** One saved demo session, as written to `<stateDir>/<sessionId>.json`. */
export interface StoredSession {
  version: 1;
  sessionId: string;
  cwd: string;
  /** The first prompt, shortened; `null` until the session has been prompted. */
  title: string | null;
  createdAt: string;
  updatedAt: string;
  modeId: string;
  model: string;
  /** The model's context setting (a `model_config` option). */
  context?: string;
  /** The boolean `thinking` option. */
  thinking?: boolean;
  /** The session's `additionalDirectories`, as the client last gave them. */
  additionalDirectories?: string[];
  /** The user chose "Always allow" for edits, so `code` mode stops asking. */
  allowAlwaysEdits: boolean;
  /** Tokens the session has used so far (the `usage_update.used` meter). */
  usedTokens: number;
  /** The transcript: prompts as `user_message_chunk`s and every update that was sent. */
  history: SessionUpdate[];
}

/**
 * Saved sessions, one JSON file each. Writes go to a temporary file first and
 * are renamed into place, so a crash mid-write never leaves half a session.
 */
export class SessionStore {
  private readonly writes = new Map<string, Promise<void>>();
  private tempCounter = 0;

  constructor(readonly dir: string) {}

  /** Writes the session, after any write of the same session still in flight. */
  save(session: StoredSession): Promise<void> {
    const text = JSON.stringify(session);
    const path = this.pathOf(session.sessionId);
    const previous = this.writes.get(session.sessionId) ?? Promise.resolve();
    const temp = this.tempPath(path);
    const next = previous.then(async () => {
      await mkdir(this.dir, { recursive: true });
      await writeFile(temp, text);
      await rename(temp, path);
    });
    const settled = next.catch(() => undefined);
    this.writes.set(session.sessionId, settled);
    void settled.then(() => {
      if (this.writes.get(session.sessionId) === settled) this.writes.delete(session.sessionId);
    });
    return next;
  }

  /** Writes the session before returning; for the moments the process is about to exit. */
  saveSync(session: StoredSession): void {
    const path = this.pathOf(session.sessionId);
    const temp = this.tempPath(path);
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(temp, JSON.stringify(session));
    renameSync(temp, path);
  }

  /** Reads one session, or `undefined` when it was never saved or cannot be read. */
  async load(sessionId: string): Promise<StoredSession | undefined> {
    return this.readFile(this.pathOf(sessionId));
  }

  /** Reads every saved session, newest first. */
  async list(): Promise<StoredSession[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const sessions: StoredSession[] = [];
    for (const name of names) {
      if (!name.endsWith(".json")) continue;
      const session = await this.readFile(join(this.dir, name));
      if (session) sessions.push(session);
    }
    return sessions.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** A temp name no other write uses, so an exit-time sync save cannot clash with an async one in flight. */
  private tempPath(path: string): string {
    return `${path}.${process.pid}.${++this.tempCounter}.tmp`;
  }

  private pathOf(sessionId: string): string {
    return join(this.dir, `${encodeURIComponent(sessionId)}.json`);
  }

  private async readFile(path: string): Promise<StoredSession | undefined> {
    try {
      const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
      return isStoredSession(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
}

function isStoredSession(value: unknown): value is StoredSession {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.version === 1 &&
    typeof record.sessionId === "string" &&
    typeof record.cwd === "string" &&
    typeof record.updatedAt === "string" &&
    typeof record.modeId === "string" &&
    typeof record.model === "string" &&
    Array.isArray(record.history)
  );
}
