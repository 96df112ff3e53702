import type { SessionEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import { errorCode } from "../store/private-fs.js";
import { findSession, upsertSession } from "../store/session-index.js";
import { acquireSessionLock } from "../store/session-lock.js";
import { openSessionLog } from "../store/session-log.js";
import type { EventSink } from "./ports.js";
import { TerminalOutputBudget } from "./terminal-output-budget.js";

/** Where the recorder writes events; `openSessionLog` in real use, a failing disk in tests. */
export interface EventLog {
  readonly path: string;
  append(event: SessionEvent): void;
  /** Several events in one write; returns those that could not be serialized. */
  appendAll?(events: readonly SessionEvent[]): { event: SessionEvent; error: Error }[];
  sync(): void;
  close(): void;
}

/** How the recorder tells the user something about the log: a notice in the session. */
export type RecorderNotify = (level: "info" | "warning" | "error", text: string) => void;

/**
 * Events kept in memory while the log cannot be written. Past this the recorder stops recording
 * this run rather than grow without bound; the session itself goes on.
 */
export const MAX_BACKLOG_EVENTS = 100_000;

/** Events appended without a flush before the recorder writes them anyway. */
const MAX_PENDING_EVENTS = 4096;

export interface RecorderOptions {
  agent: string;
  agentCommand: string[];
  cwd: string;
  root?: string;
  /** The lock of the session being resumed, taken before the agent started. */
  lock?: { id: string; release: () => void };
  /** Opens the log of a session; tests pass one that fails like a full disk. */
  openLog?: (id: string, root?: string) => EventLog;
}

/**
 * Writes a session's events to its durable log and keeps the index current. Events that come
 * before the agent has named the session are held and written once it has. Replayed history is
 * not written: the agent replays it again on the next load.
 *
 * A write that fails (a full disk) is reported once, as a notice; the events from then on wait in
 * memory and are written, in order, at the next turn boundary the disk allows. Client terminal
 * output is thinned to what the screen needs ({@link TerminalOutputBudget}).
 */
export class SessionRecorder implements EventSink {
  private log?: EventLog;
  private held: SessionEvent[] = [];
  private backlog: SessionEvent[] = [];
  private indexing: Promise<unknown> = Promise.resolve();
  private release?: () => void;
  private state?: () => SessionState;
  private notify: RecorderNotify = () => undefined;
  private readonly terminalOutput = new TerminalOutputBudget();
  private reported = new Set<"log" | "index" | "event">();
  /** Set when this run is not recorded: another conch has the session, or the log gave out. */
  readOnlyBecause?: string;
  /** The lock of the session being resumed, until the first log opens. */
  private preLock?: { id: string; release: () => void };
  /** The session the open log belongs to. */
  private sessionId?: string;
  /** The agent's `agent_ready`: a log started after a switch begins with it, so it folds alone. */
  private agentReady?: SessionEvent;
  /** Where this session's items start in the state: after `/clear` or `/fork`, the old ones are another session's. */
  private itemsFrom = 0;

  constructor(private readonly meta: RecorderOptions) {
    this.preLock = meta.lock;
  }

  /** Lets the recorder read titles and counts for the index, and tell the user about the log. */
  attach(state: () => SessionState, notify?: RecorderNotify): void {
    this.state = state;
    if (notify) this.notify = notify;
  }

  append(ev: SessionEvent): void {
    if (ev.type === "update" && ev.history) return;
    if (ev.type === "replay_started" || ev.type === "replay_ended") return;
    if (ev.type === "agent_ready") this.agentReady = ev;
    // Another session took this one's place (`/clear`, `/fork`, a restart that could not resume): a log of its own.
    if (ev.type === "session_started" && this.log && ev.info.sessionId !== this.sessionId) this.leave();
    if (ev.type === "session_started" && !this.log && !this.readOnlyBecause) this.open(ev.info.sessionId, ev.at);
    if (this.readOnlyBecause) return;
    if (!this.log) {
      this.held.push(ev);
      return;
    }
    if (ev.type === "terminal_output") {
      for (const part of this.terminalOutput.admit(ev)) this.write(part);
      return;
    }
    // What a terminal printed goes in before the exit that ends it.
    if (ev.type === "terminal_exited") for (const part of this.terminalOutput.release(ev.terminalId)) this.write(part);
    this.write(ev);
  }

  private open(id: string, at: number): void {
    const preLocked = this.preLock;
    // The lock taken before the agent started is used, or freed, once.
    this.preLock = undefined;
    let release: () => void;
    if (preLocked?.id === id) {
      release = preLocked.release;
    } else {
      preLocked?.release();
      const lock = acquireSessionLock(id, this.meta.root);
      if (!lock.ok) {
        this.stopRecording(
          `session ${id} is open in another conch (pid ${lock.heldByPid ?? "?"}): this one does not record it, so what happens here is not saved`,
          "error",
        );
        return;
      }
      release = lock.release;
    }
    this.release = release;
    try {
      this.log = (this.meta.openLog ?? openSessionLog<SessionEvent>)(id, this.meta.root);
    } catch (err) {
      this.stopRecording(
        `the session log for ${id} cannot be opened (${describe(err)}): this session goes on, but is not saved`,
        "warning",
      );
      return;
    }
    this.sessionId = id;
    if (this.switched && this.agentReady) this.write(this.agentReady);
    const held = this.held;
    this.held = [];
    for (const ev of held) this.write(ev);
    const now = new Date(at).toISOString();
    this.index(
      {
        id,
        agent: this.meta.agent,
        agentCommand: this.meta.agentCommand,
        cwd: this.meta.cwd,
        createdAt: now,
        updatedAt: now,
        messageCount: 0,
      },
      true,
    );
  }

  /** Set once a log was left for another session's. */
  private switched = false;

  /** Finishes the log of the session conch just left, and frees its lock, before the next one opens. */
  private leave(): void {
    this.sync();
    try {
      this.log?.close();
    } catch (err) {
      this.reportOnce("log", "warning", `the session log ${this.log?.path} could not be closed cleanly (${describe(err)})`);
    }
    this.log = undefined;
    this.release?.();
    this.release = undefined;
    this.switched = true;
    this.itemsFrom = this.state?.().items.length ?? 0;
  }

  private stopRecording(why: string, level: "warning" | "error"): void {
    this.readOnlyBecause = why;
    this.held = [];
    this.backlog = [];
    this.notify(level, why);
  }

  private write(ev: SessionEvent): void {
    if (!this.log || this.readOnlyBecause) return;
    if (this.backlog.length > 0) {
      this.hold(ev);
      return;
    }
    this.pending.push(ev);
    // A sink that never flushes still writes, and memory stays bounded.
    if (this.pending.length >= MAX_PENDING_EVENTS) this.flush();
  }

  /** Events written since the last flush go to the log in one write (a burst is one write, not thousands). */
  private pending: SessionEvent[] = [];

  /** Writes what was appended since the last flush; the orchestrator calls it after each transition. */
  flush(): void {
    if (this.pending.length === 0 || !this.log) return;
    const events = this.pending;
    this.pending = [];
    if (!this.log.appendAll) {
      for (const ev of events) {
        if (this.backlog.length > 0) this.hold(ev);
        else {
          try {
            this.log.append(ev);
          } catch (err) {
            this.writeFailed(err, ev);
          }
        }
      }
      return;
    }
    try {
      for (const { error } of this.log.appendAll(events)) this.writeFailed(error, undefined);
    } catch (err) {
      this.writeFailed(err, undefined);
      for (const ev of events) this.hold(ev);
    }
  }

  private writeFailed(err: unknown, ev: SessionEvent | undefined): void {
    if (errorCode(err) === undefined) {
      // Not the disk: this one event cannot be serialized (say, nested too deep). The rest are fine.
      this.reportOnce("event", "warning", `a session event could not be saved and is left out of the log: ${describe(err)}`);
      return;
    }
    this.reportOnce(
      "log",
      "warning",
      `the session log ${this.log?.path} cannot be written (${describe(err)}): the session goes on, and what happens now is kept in memory and saved once the disk allows`,
    );
    if (ev) this.hold(ev);
  }

  private hold(ev: SessionEvent): void {
    if (this.backlog.length >= MAX_BACKLOG_EVENTS) {
      const lost = this.backlog.length + 1;
      this.stopRecording(`the session log stopped: ${lost} events could not be saved, and the rest of this run will not be`, "error");
      return;
    }
    this.backlog.push(ev);
  }

  /** Writes what waited in memory; false while the disk still refuses. */
  private flushBacklog(): boolean {
    if (!this.log || this.backlog.length === 0) return true;
    while (this.backlog.length > 0) {
      try {
        this.log.append(this.backlog[0]);
      } catch (err) {
        if (errorCode(err) !== undefined) return false;
      }
      this.backlog.shift();
    }
    this.notify("info", "the session log is written again; nothing was lost");
    return true;
  }

  private reportOnce(what: "log" | "index" | "event", level: "warning" | "error", text: string): void {
    if (this.reported.has(what)) return;
    this.reported.add(what);
    this.notify(level, text);
  }

  private index(rec: Parameters<typeof upsertSession>[0], creating = false): void {
    const root = this.meta.root;
    this.indexing = this.indexing
      .then(async () => {
        if (creating) {
          // Keep createdAt of a session that is being resumed.
          const found = await findSession(rec.id, root).catch(() => undefined);
          if (found && "match" in found) {
            const { createdAt: _created, ...rest } = rec;
            return upsertSession(rest, root);
          }
        }
        return upsertSession(rec, root);
      })
      .catch((err: unknown) => {
        this.reportOnce(
          "index",
          "warning",
          `the session index could not be updated (${describe(err)}); \`conch sessions\` rebuilds it from the session logs`,
        );
      });
  }

  sync(): void {
    if (!this.log || this.readOnlyBecause) return;
    for (const part of this.terminalOutput.release()) this.write(part);
    this.flush();
    if (!this.flushBacklog()) return;
    try {
      this.log.sync();
    } catch (err) {
      this.reportOnce(
        "log",
        "warning",
        `the session log ${this.log.path} cannot be written (${describe(err)}): the session goes on, and what is not saved yet is kept in memory`,
      );
    }
    const s = this.state?.();
    if (!s?.info || s.info.sessionId !== this.sessionId) return;
    const items = this.itemsFrom ? s.items.slice(this.itemsFrom) : s.items;
    const firstPrompt = items.find((i) => i.kind === "user" && !i.internal);
    const title = s.title ?? (firstPrompt && "text" in firstPrompt ? firstPrompt.text.split("\n")[0].slice(0, 80) : undefined);
    this.index({
      id: s.info.sessionId,
      title,
      updatedAt: new Date().toISOString(),
      lastStopReason: s.lastStopReason,
      messageCount: items.filter((i) => i.kind === "user" || i.kind === "agent").length,
    });
  }

  /** Flushes the log and the index and frees the session lock; never throws. */
  async close(): Promise<void> {
    this.sync();
    await this.indexing;
    if (this.backlog.length > 0) {
      this.notify(
        "error",
        `the session log ${this.log?.path} could not be written: the last ${this.backlog.length} events of this run are not saved`,
      );
      this.backlog = [];
    }
    try {
      this.log?.close();
    } catch (err) {
      this.reportOnce("log", "warning", `the session log ${this.log?.path} could not be closed cleanly (${describe(err)})`);
    }
    this.log = undefined;
    (this.release ?? this.preLock?.release)?.();
    this.release = undefined;
    this.preLock = undefined;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
