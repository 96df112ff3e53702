import type { SessionEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import { findSession, upsertSession } from "../store/session-index.js";
import { acquireSessionLock } from "../store/session-lock.js";
import { openSessionLog, type SessionLogWriter } from "../store/session-log.js";
import type { EventSink } from "./orchestrator.js";

/**
 * Writes a session's events to its durable log and keeps the index current. Events that come
 * before the agent has named the session are held and written once it has. Replayed history is
 * not written: the agent replays it again on the next load.
 */
export class SessionRecorder implements EventSink {
  private writer?: SessionLogWriter<SessionEvent>;
  private held: SessionEvent[] = [];
  private indexing: Promise<unknown> = Promise.resolve();
  private release?: () => void;
  private state?: () => SessionState;
  /** Set when another conch process holds this session: this one then records nothing. */
  readOnlyBecause?: string;

  constructor(private readonly meta: { agent: string; agentCommand: string[]; cwd: string; root?: string }) {}

  /** Lets the recorder read titles and counts for the index. */
  attach(state: () => SessionState): void {
    this.state = state;
  }

  append(ev: SessionEvent): void {
    if (ev.type === "update" && ev.history) return;
    if (ev.type === "replay_started" || ev.type === "replay_ended") return;
    if (ev.type === "session_started" && !this.writer && !this.readOnlyBecause) this.open(ev.info.sessionId, ev.at);
    if (this.writer) this.writer.append(ev);
    else if (!this.readOnlyBecause) this.held.push(ev);
  }

  private open(id: string, at: number): void {
    const lock = acquireSessionLock(id, this.meta.root);
    if (!lock.ok) {
      this.readOnlyBecause = `session ${id} is open in another conch process (pid ${lock.heldByPid ?? "?"}); this one does not record it`;
      this.held = [];
      return;
    }
    this.release = lock.release;
    this.writer = openSessionLog<SessionEvent>(id, this.meta.root);
    for (const ev of this.held) this.writer.append(ev);
    this.held = [];
    const now = new Date(at).toISOString();
    this.index({ id, agent: this.meta.agent, agentCommand: this.meta.agentCommand, cwd: this.meta.cwd, createdAt: now, updatedAt: now, messageCount: 0 }, true);
  }

  private index(rec: Parameters<typeof upsertSession>[0], creating = false): void {
    const root = this.meta.root;
    this.indexing = this.indexing.then(async () => {
      if (creating) {
        // Keep createdAt of a session that is being resumed.
        const found = await findSession(rec.id, root).catch(() => undefined);
        if (found && "match" in found) {
          const { createdAt: _created, ...rest } = rec;
          return upsertSession(rest, root);
        }
      }
      return upsertSession(rec, root);
    }).catch(() => undefined);
  }

  sync(): void {
    if (!this.writer) return;
    this.writer.sync();
    const s = this.state?.();
    if (!s?.info) return;
    const firstPrompt = s.items.find((i) => i.kind === "user" && !i.internal);
    const title = s.title ?? (firstPrompt && "text" in firstPrompt ? firstPrompt.text.split("\n")[0].slice(0, 80) : undefined);
    this.index({
      id: s.info.sessionId,
      title,
      updatedAt: new Date().toISOString(),
      lastStopReason: s.lastStopReason,
      messageCount: s.items.filter((i) => i.kind === "user" || i.kind === "agent").length,
    });
  }

  /** Flushes the log and the index and frees the session lock. */
  async close(): Promise<void> {
    this.sync();
    await this.indexing;
    this.writer?.close();
    this.release?.();
  }
}
