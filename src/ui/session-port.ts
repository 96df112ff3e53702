import type { Intents } from "../orchestrator/orchestrator.js";
import type { TurnTiming } from "../session/quiet-period.js";
import type { SessionState } from "../session/state.js";
import type { TerminalAccess } from "../terminals/terminal-access.js";

/**
 * What the UI needs of a session: its state, a way to hear about changes, and the user's intents:
 * every intent of `orchestrator/intents.ts`, as the part that carries it out declares it (its
 * TSDoc there is the contract). The Orchestrator is one; tests build a fake from the same table.
 */
export interface SessionPort extends Intents {
  readonly state: SessionState;
  subscribe(fn: (state: SessionState) => void): () => void;
  /** How long the turn machine waits out quiet periods and stalls, for the status line. */
  readonly timing?: TurnTiming;
  /** The session's terminals, once its agent started: screens to draw, client PTYs to type into. */
  readonly terminals?: TerminalAccess;
}

/** What a read-only view of a session needs (the transcript of `conch attach`): no intents. */
export type SessionSource = Pick<SessionPort, "state" | "subscribe" | "terminals">;
