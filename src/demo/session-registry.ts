import { RequestError, type AgentContext, type SessionInfo } from "@agentclientprotocol/sdk";
import { DemoSession } from "./demo-session.js";
import type { SessionStore } from "./session-store.js";

/** The sessions this process knows: the live ones, and the saved ones it can bring back. */
export class SessionRegistry {
  private readonly live = new Map<string, DemoSession>();
  /** Closed with `session/close`: not usable until loaded or resumed again. */
  private readonly closed = new Set<string>();

  constructor(
    private readonly store: SessionStore,
    private readonly stateUpdates = false,
  ) {}

  /** Creates and saves a new session. */
  async create(cwd: string, client: AgentContext, additionalDirectories?: string[]): Promise<DemoSession> {
    const session = DemoSession.create(cwd, client, this.store);
    session.stateUpdates = this.stateUpdates;
    if (additionalDirectories?.length) session.record.additionalDirectories = additionalDirectories;
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
    if (!session || this.closed.has(sessionId)) throw RequestError.sessionNotFound(sessionId);
    return session;
  }

  /** Brings a session back for load or resume: the live one if there is one, else the saved one. */
  async open(sessionId: string, client: AgentContext, cwd: string, additionalDirectories?: string[]): Promise<DemoSession> {
    this.closed.delete(sessionId);
    let session = this.live.get(sessionId);
    if (!session) {
      const record = await this.store.load(sessionId);
      if (!record) throw RequestError.sessionNotFound(sessionId);
      session = new DemoSession(record, client, this.store);
      session.stateUpdates = this.stateUpdates;
      this.live.set(sessionId, session);
    }
    session.attach(client, cwd);
    // The list is the whole of it each time: none given means none.
    session.record.additionalDirectories = additionalDirectories?.length ? additionalDirectories : undefined;
    return session;
  }

  /** `session/fork`: a new session with a copy of the source's transcript and settings; the source is untouched. */
  async fork(sourceId: string, client: AgentContext, cwd: string, additionalDirectories?: string[]): Promise<DemoSession> {
    const source = this.live.get(sourceId)?.record ?? (await this.store.load(sourceId));
    if (!source) throw RequestError.sessionNotFound(sourceId);
    const session = DemoSession.create(cwd, client, this.store);
    session.stateUpdates = this.stateUpdates;
    const { modeId, model, context, thinking, allowAlwaysEdits, usedTokens, title } = source;
    Object.assign(session.record, {
      modeId,
      model,
      context,
      thinking,
      allowAlwaysEdits,
      usedTokens,
      title,
      history: structuredClone(source.history),
    });
    if (additionalDirectories?.length) session.record.additionalDirectories = additionalDirectories;
    this.live.set(session.id, session);
    await session.save();
    return session;
  }

  /**
   * `session/close`: ends the turn in progress and saves the session, which answers nothing more
   * until it is loaded or resumed again. Its background jobs stand for processes that outlive the
   * agent itself (a later load shows them still running), so closing does not stop them either.
   */
  async close(sessionId: string): Promise<void> {
    const session = this.require(sessionId);
    session.cancelTurn();
    this.closed.add(sessionId);
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
