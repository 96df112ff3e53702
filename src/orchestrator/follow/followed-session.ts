import type { SessionEvent } from "../../session/events.js";
import { reduceBatch } from "../../session/reduce.js";
import { initialSessionState, type SessionState } from "../../session/state.js";
import { RegistryTerminalService } from "../terminals/terminal-service.js";

type Listener = (state: SessionState) => void;

/**
 * A session seen from its log, as another conch process writes it (`conch attach`): the same fold
 * as the orchestrator's, fed from the log instead of the agent, and terminal screens rebuilt from
 * the output the log holds. It has no agent and no intents: nothing here writes anywhere.
 */
export class FollowedSession {
  state: SessionState = initialSessionState();
  /** Screens for the terminals the log shows (shown, never run: no command starts here). */
  readonly terminals: RegistryTerminalService;
  private readonly listeners = new Set<Listener>();

  constructor(cwd: string) {
    this.terminals = new RegistryTerminalService(() => undefined, cwd);
  }

  /** Folds events read from the log, in order, as one batch (a snapshot, as session/draft.ts says), and tells the listeners once. */
  apply(events: readonly SessionEvent[]): void {
    if (events.length === 0) return;
    this.state = Object.freeze(reduceBatch(this.state, events));
    for (const ev of events) this.terminals.observe(ev);
    for (const fn of this.listeners) fn(this.state);
  }

  /** Listens to every change; returns the unsubscribe function. */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Frees the terminal screens. */
  dispose(): void {
    this.terminals.dispose();
  }
}
