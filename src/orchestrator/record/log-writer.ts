import type { SessionEvent } from "../../session/events.js";
import { errorCode } from "../../store/private-fs.js";

/** Where the recorder writes events; `openSessionLog` in real use, a failing disk in tests. */
export interface EventLog {
  readonly path: string;
  append(event: SessionEvent): void;
  /** Several events in one write; returns those that could not be serialized. */
  appendAll?(events: readonly SessionEvent[]): { event: SessionEvent; error: Error }[];
  sync(): void;
  close(): void;
}

/**
 * Events kept in memory while the log cannot be written. Past this the recorder stops recording
 * this run rather than grow without bound; the session itself goes on.
 */
export const MAX_BACKLOG_EVENTS = 100_000;

/** Events appended without a flush before the writer writes them anyway. */
const MAX_PENDING_EVENTS = 4096;

/** What a log writer tells its recorder. */
export interface LogWriterReports {
  /** A failure of this kind, told the user once per run. */
  reportOnce(what: "log" | "event", level: "warning", text: string): void;
  /** The disk took the backlog: the user is told that nothing was lost. */
  notify(level: "info", text: string): void;
  /** Too much waited in memory: the run is no longer recorded. */
  giveUp(why: string): void;
}

/**
 * Writes events to one open session log: what was appended since the last flush goes in one write
 * (a burst is one write, not thousands). A write the disk refuses (a full disk) keeps the events in
 * memory, and they are written, in order, once the disk allows; an event that cannot be serialized
 * is left out and the rest go on.
 */
export class LogWriter {
  private pending: SessionEvent[] = [];
  private backlog: SessionEvent[] = [];

  constructor(
    readonly log: EventLog,
    private readonly reports: LogWriterReports,
    /** What a flush writes for the events appended since the last one (chunks joined); as they are by default. */
    private readonly records: (events: SessionEvent[]) => SessionEvent[] = (events) => events,
  ) {}

  /** How many events wait in memory for the disk. */
  get unsaved(): number {
    return this.backlog.length;
  }

  /** Adds an event to the next write (behind the backlog while the disk refuses). */
  write(ev: SessionEvent): void {
    if (this.backlog.length > 0) {
      this.hold(ev);
      return;
    }
    this.pending.push(ev);
    // A sink that never flushes still writes, and memory stays bounded.
    if (this.pending.length >= MAX_PENDING_EVENTS) this.flush();
  }

  /** Writes what was added since the last flush. */
  flush(): void {
    if (this.pending.length === 0) return;
    const events = this.records(this.pending);
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

  /** Writes everything, the backlog too, and makes the log durable; false while the disk still refuses the backlog. */
  sync(): boolean {
    this.flush();
    if (!this.flushBacklog()) return false;
    try {
      this.log.sync();
    } catch (err) {
      this.reports.reportOnce(
        "log",
        "warning",
        `the session log ${this.log.path} cannot be written (${describeError(err)}): the session goes on, and what is not saved yet is kept in memory`,
      );
    }
    return true;
  }

  /** Forgets what waited in memory: the run is no longer recorded. */
  dropBacklog(): void {
    this.backlog = [];
  }

  /** Closes the log; a failure is reported, never thrown. */
  close(): void {
    try {
      this.log.close();
    } catch (err) {
      this.reports.reportOnce("log", "warning", `the session log ${this.log.path} could not be closed cleanly (${describeError(err)})`);
    }
  }

  private writeFailed(err: unknown, ev: SessionEvent | undefined): void {
    if (errorCode(err) === undefined) {
      // Not the disk: this one event cannot be serialized (say, nested too deep). The rest are fine.
      this.reports.reportOnce("event", "warning", `a session event could not be saved and is left out of the log: ${describeError(err)}`);
      return;
    }
    this.reports.reportOnce(
      "log",
      "warning",
      `the session log ${this.log.path} cannot be written (${describeError(err)}): the session goes on, and what happens now is kept in memory and saved once the disk allows`,
    );
    if (ev) this.hold(ev);
  }

  private hold(ev: SessionEvent): void {
    if (this.backlog.length >= MAX_BACKLOG_EVENTS) {
      const lost = this.backlog.length + 1;
      this.reports.giveUp(`the session log stopped: ${lost} events could not be saved, and the rest of this run will not be`);
      return;
    }
    this.backlog.push(ev);
  }

  /** Writes what waited in memory; false while the disk still refuses. */
  private flushBacklog(): boolean {
    if (this.backlog.length === 0) return true;
    while (this.backlog.length > 0) {
      try {
        this.log.append(this.backlog[0]);
      } catch (err) {
        if (errorCode(err) !== undefined) return false;
      }
      this.backlog.shift();
    }
    this.reports.notify("info", "the session log is written again; nothing was lost");
    return true;
  }
}

/** An error's message, for a notice. */
export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
