import type { SessionState } from "../../src/session/state.js";

/** What the waits need of a session: its state and a way to hear of changes (an Orchestrator). */
interface Watched {
  readonly state: SessionState;
  subscribe(fn: (state: SessionState) => void): () => void;
}

/** Resolves with the first state (now or later) for which `pred` holds; rejects after `ms`, naming the phase. */
export function untilState(session: Watched, pred: (s: SessionState) => boolean, ms = 20_000): Promise<SessionState> {
  if (pred(session.state)) return Promise.resolve(session.state);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out in phase ${session.state.phase}`));
    }, ms);
    const off = session.subscribe((s) => {
      if (!pred(s)) return;
      clearTimeout(timer);
      off();
      resolve(s);
    });
  });
}
