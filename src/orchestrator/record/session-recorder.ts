import { joinChunks } from "../../session/chunk-join.js";
import type { SessionEvent } from "../../session/events.js";
import { profileOf } from "../../session/profiles/select-profile.js";
import type { SessionState } from "../../session/state.js";
import { acquireSessionLock } from "../../store/session-lock.js";
import { openSessionLog } from "../../store/session-log.js";
import { describeError, LogWriter, type EventLog } from "./log-writer.js";
import type { EventSink } from "../ports.js";
import { indexUpdateOf, SessionIndexKeeper } from "./session-index-keeper.js";
import { TerminalOutputBudget } from "./terminal-output-budget.js";

/** Events after which the chunks of a batch may fold another way: another agent, another session. */
const RESETS: ReadonlySet<SessionEvent["type"]> = new Set(["agent_ready", "session_started", "session_left", "restarted"]);

/** What a run that ends now was not able to keep: for print mode's result and exit code. */
export interface RecordingReport {
  /** Each problem with the log or the index, as told to the user. */
  warnings: string[];
  /** Set when this run's events are not all in the session log: why, for a person. */
  lost?: string;
}

/** How the recorder tells the user something about the log: a notice in the session. */
export type RecorderNotify = (level: "info" | "warning" | "error", text: string) => void;

export interface RecorderOptions {
  agent: string;
  /** The agent was given as a command line: the index names it as it names itself (`agentInfo`), not by its program. */
  namedByAgent?: boolean;
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
 * not written: the agent replays it again on the next load. A session conch switches to (`/clear`,
 * `/fork`) gets a log of its own.
 *
 * A write that fails (a full disk) is reported once, as a notice; the events from then on wait in
 * memory ({@link LogWriter}). Client terminal output is thinned to what the screen needs
 * ({@link TerminalOutputBudget}).
 */
export class SessionRecorder implements EventSink {
  private writer?: LogWriter;
  private held: SessionEvent[] = [];
  private readonly index: SessionIndexKeeper;
  private release?: () => void;
  private state?: () => SessionState;
  private notify: RecorderNotify = () => undefined;
  private readonly terminalOutput = new TerminalOutputBudget();
  private reported = new Set<"log" | "index" | "event">();
  /** Every problem told to the user, in order. */
  private readonly problems: string[] = [];
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
  /** Set once a log was left for another session's. */
  private switched = false;
  /** This conch's control socket, for the index. */
  private control?: string;

  constructor(private readonly meta: RecorderOptions) {
    this.preLock = meta.lock;
    this.index = new SessionIndexKeeper(meta.root, (text) => this.reportOnce("index", "warning", text));
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
    if (ev.type === "session_started" && this.writer && ev.info.sessionId !== this.sessionId) this.leave();
    if (ev.type === "session_started" && !this.writer && !this.readOnlyBecause) this.open(ev.info.sessionId, ev.at, ev.info.agentName);
    if (this.readOnlyBecause) return;
    if (!this.writer) {
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

  /** Writes what was appended since the last flush; the orchestrator calls it after each transition. */
  flush(): void {
    this.writer?.flush();
  }

  sync(): void {
    if (!this.writer || this.readOnlyBecause) return;
    for (const part of this.terminalOutput.release()) this.write(part);
    if (!this.writer.sync()) return;
    const update = indexUpdateOf(this.state?.(), this.sessionId, this.itemsFrom);
    if (update) this.index.update(update);
  }

  /**
   * Writes what is pending to the log and the index, and says what this run could not keep: for a
   * run that ends now (print mode), which cannot wait for the disk to allow.
   */
  async report(): Promise<RecordingReport> {
    this.sync();
    await this.index.idle();
    const unsaved = this.writer?.unsaved ?? 0;
    const lost =
      this.readOnlyBecause ??
      (unsaved > 0
        ? `the session log ${this.writer!.log.path} could not be written: the last ${unsaved} events of this run are not saved, so --resume cannot show all of it`
        : undefined);
    return { warnings: [...this.problems], ...(lost ? { lost } : {}) };
  }

  /** Flushes the log and the index and frees the session lock; never throws. */
  async close(): Promise<void> {
    this.sync();
    await this.index.idle();
    const writer = this.writer;
    if (writer && writer.unsaved > 0) {
      this.notify(
        "error",
        `the session log ${writer.log.path} could not be written: the last ${writer.unsaved} events of this run are not saved`,
      );
      writer.dropBacklog();
    }
    writer?.close();
    this.writer = undefined;
    (this.release ?? this.preLock?.release)?.();
    this.release = undefined;
    this.preLock = undefined;
  }

  private open(id: string, at: number, agentName: string): void {
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
    let log: EventLog;
    try {
      log = (this.meta.openLog ?? openSessionLog<SessionEvent>)(id, this.meta.root);
    } catch (err) {
      this.stopRecording(
        `the session log for ${id} cannot be opened (${describeError(err)}): this session goes on, but is not saved`,
        "warning",
      );
      return;
    }
    this.writer = new LogWriter(
      log,
      {
        reportOnce: (what, level, text) => this.reportOnce(what, level, text),
        notify: (level, text) => this.notify(level, text),
        giveUp: (why) => this.stopRecording(why, "error"),
      },
      (events) => this.records(events),
    );
    this.sessionId = id;
    if (this.switched && this.agentReady) this.write(this.agentReady);
    const held = this.held;
    this.held = [];
    for (const ev of held) this.write(ev);
    const now = new Date(at).toISOString();
    const { agentCommand, cwd } = this.meta;
    const agent = this.meta.namedByAgent ? agentName : this.meta.agent;
    const control = this.control ? { control: this.control } : {};
    this.index.add({ id, agent, agentCommand, cwd, createdAt: now, updatedAt: now, messageCount: 0, ...control });
  }

  /** Where this conch listens for another terminal (`conch attach --write`): written into the index entry of each session it records. */
  setControl(socketPath: string): void {
    this.control = socketPath;
    if (this.sessionId && this.writer) this.index.update({ id: this.sessionId, control: socketPath });
  }

  /** Finishes the log of the session conch just left, and frees its lock, before the next one opens. */
  private leave(): void {
    this.sync();
    this.writer?.close();
    this.writer = undefined;
    this.release?.();
    this.release = undefined;
    this.switched = true;
    this.itemsFrom = this.state?.().items.length ?? 0;
  }

  private stopRecording(why: string, level: "warning" | "error"): void {
    this.readOnlyBecause = why;
    this.problems.push(why);
    this.held = [];
    this.writer?.dropBacklog();
    this.notify(level, why);
  }

  /**
   * A batch's runs of text chunks to one message as two records each (`joinChunks`): a flood of
   * chunks costs a few lines of log, not one serialized event per chunk. A batch that changes the
   * agent or the session (its profile, its id) is written as it came.
   */
  private records(events: SessionEvent[]): SessionEvent[] {
    if (events.length < 3 || events.some((ev) => RESETS.has(ev.type))) return events;
    const state = this.state?.();
    if (!state) return events;
    return joinChunks(events, {
      sessionId: this.sessionId,
      profile: profileOf(state),
      normalize: { tool: (id) => state.toolCalls[id], background: state.background, replayTail: state.replayTail === true },
    });
  }

  private write(ev: SessionEvent): void {
    if (!this.writer || this.readOnlyBecause) return;
    this.writer.write(ev);
  }

  private reportOnce(what: "log" | "index" | "event", level: "warning" | "error", text: string): void {
    if (this.reported.has(what)) return;
    this.reported.add(what);
    this.problems.push(text);
    this.notify(level, text);
  }
}
