import { RequestError, type AgentContext, type SessionInfo } from "@agentclientprotocol/sdk";
import { DemoSession } from "./demo-session.js";
import type { SessionStore } from "./session-store.js";

/** The sessions this process knows: the live ones, and the saved ones it can bring back. */
export class SessionRegistry {
  private readonly live = new Map<string, DemoSession>();

  constructor(private readonly store: SessionStore) {}

  /** Creates and saves a new session. */
  async create(cwd: string, client: AgentContext): Promise<DemoSession> {
    const session = DemoSession.create(cwd, client, this.store);
    this.live.set(session.id, session);
    await session.save();
    return session;
  }

  /** A live session by id. */
  get(sessionId: string): DemoSession | undefined {
    return this.live.get(sessionId);
  }

  /** A live session by id, or the JSON-RPC "session not found" error. */
  require(sessionId: string): DemoSession {
    const session = this.live.get(sessionId);
    if (!session) throw RequestError.sessionNotFound(sessionId);
    return session;
  }

  /** Brings a session back for load or resume: the live one if there is one, else the saved one. */
  async open(sessionId: string, client: AgentContext, cwd: string): Promise<DemoSession> {
    let session = this.live.get(sessionId);
    if (!session) {
      const record = await this.store.load(sessionId);
      if (!record) throw RequestError.sessionNotFound(sessionId);
      session = new DemoSession(record, client, this.store);
      this.live.set(sessionId, session);
    }
    session.attach(client, cwd);
    return session;
  }

  /** `session/close`: stops the session's turn and background jobs, saves it, and lets it go. */
  async close(sessionId: string): Promise<void> {
    const session = this.require(sessionId);
    session.cancel();
    this.live.delete(sessionId);
    await session.save();
  }

  /** `session/list`: saved and live sessions, newest first, optionally only those of one cwd. */
  async list(cwd?: string | null): Promise<SessionInfo[]> {
    const records = new Map((await this.store.list()).map((record) => [record.sessionId, record]));
    for (const session of this.live.values()) records.set(session.id, session.record);
    return [...records.values()]
      .filter((record) => !cwd || record.cwd === cwd)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      .map((record) => ({ sessionId: record.sessionId, cwd: record.cwd, title: record.title, updatedAt: record.updatedAt }));
  }

  /** Saves every live session before returning; for exits. */
  saveAllSync(): void {
    for (const session of this.live.values()) {
      try {
        session.saveSync();
      } catch {
        // Exiting anyway; one unwritable session must not stop the others being saved.
      }
    }
  }
}
