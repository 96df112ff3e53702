import type { SessionEvent } from "./events.js";
import { reduceBatch } from "./reduce.js";
import { initialSessionState, type SessionState } from "./state.js";

/** The error a turn gets when the conch process running it ended before it did. */
export const INTERRUPTED_TURN = "conch stopped before this turn ended (it was killed or crashed); what came before is kept";

function closingEvents(s: SessionState, at: number): SessionEvent[] {
  return [
    ...s.permissions.map((p): SessionEvent => ({ type: "permission_withdrawn", at, key: p.key })),
    ...s.questions.map((q): SessionEvent => ({
      type: "question_answered",
      at,
      key: q.key,
      response: { action: "cancel" },
      source: "cancel",
    })),
    ...s.pendingPrompts.map((turnId): SessionEvent => ({ type: "prompt_response", at, turnId, error: INTERRUPTED_TURN })),
    // conch's own terminals were that process's children: they are not running in this one.
    ...Object.values(s.terminals)
      .filter((t) => t.source === "client" && !t.exited)
      .map((t): SessionEvent => ({ type: "terminal_exited", at, terminalId: t.terminalId, exitCode: null, signal: null })),
  ];
}

/**
 * A session log read back from disk, with what each earlier conch process left waiting closed
 * where that process ended: prompts whose answer died with it, and the permission requests and
 * questions of its connection. Left open, they would hold the resumed session's first turn
 * forever (after `kill -9`, `--resume` waited on a prompt that could never be answered). Tool
 * calls and the agent's display terminals stay as they were: the agent's replay, or the stall
 * report, says what became of them. conch's own terminals (client PTYs, the user's `!cmd`) ran in
 * that process and end with it: the tasks view must not list them running.
 */
export function closeInterruptedRuns(events: readonly SessionEvent[]): SessionEvent[] {
  return foldInterruptedRuns(events).events;
}

/** `closeInterruptedRuns`, and the state the events it returns fold to (the fold it made on the way). */
export function foldInterruptedRuns(events: readonly SessionEvent[]): { events: SessionEvent[]; state: SessionState } {
  const fold = new InterruptedRunsFold();
  fold.add(events);
  return fold.finish();
}

/**
 * `foldInterruptedRuns` a part of the log at a time (`add`), for a caller that reads a long log in
 * chunks and lets other work run between them; `finish` closes what the last run left open.
 */
export class InterruptedRunsFold {
  private readonly out: SessionEvent[] = [];
  // This fold owns its states and reads only the latest: no copies (a long log would cost its
  // length at every event). A process's run is folded in batches: only where the next one starts
  // does the fold need to look at what it left open.
  private state = initialSessionState();

  /** The next events of the log, in order. */
  add(events: readonly SessionEvent[]): void {
    let run: SessionEvent[] = [];
    for (const ev of events) {
      // Within one process a session starts from `starting` (or `auth`); any other phase means this
      // session_started opens the run of a later process, and the previous one ended here.
      if (ev.type === "session_started") {
        this.fold(run);
        run = [];
        if (this.state.phase !== "starting" && this.state.phase !== "auth") this.fold(closingEvents(this.state, ev.at));
      }
      run.push(ev);
    }
    this.fold(run);
  }

  /** The events with what the last run left open closed, and the state they fold to. */
  finish(): { events: SessionEvent[]; state: SessionState } {
    const { out } = this;
    this.fold(closingEvents(this.state, out.length ? out[out.length - 1].at : 0));
    return { events: out, state: this.state };
  }

  private fold(events: SessionEvent[]): void {
    if (events.length === 0) return;
    this.state = reduceBatch(this.state, events, { transient: true });
    this.out.push(...events);
  }
}
