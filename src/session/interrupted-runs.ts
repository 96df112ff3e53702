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
  const out: SessionEvent[] = [];
  // This fold owns its states and reads only the latest: no copies per event (a long log would
  // cost its length at every event).
  let state = initialSessionState();
  const reduce = (s: SessionState, ev: SessionEvent) => reduceBatch(s, [ev], { transient: true });
  const close = (at: number): void => {
    for (const ev of closingEvents(state, at)) {
      state = reduce(state, ev);
      out.push(ev);
    }
  };
  for (const ev of events) {
    // Within one process a session starts from `starting` (or `auth`); any other phase means this
    // session_started opens the run of a later process, and the previous one ended here.
    if (ev.type === "session_started" && state.phase !== "starting" && state.phase !== "auth") close(ev.at);
    state = reduce(state, ev);
    out.push(ev);
  }
  close(out.length ? out[out.length - 1].at : 0);
  return out;
}
