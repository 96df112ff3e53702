import type { SessionNotification } from "@agentclientprotocol/sdk";
import { SIGNAL_NOTIFICATIONS } from "../session/profiles/turn-signals.js";
import type { ReplayHold } from "./replay-hold.js";
import type { SessionEvents } from "./ports.js";

/**
 * Takes what the agent sends about sessions (updates, turn signals) into the session's events:
 * only this session's and its subagents', and while a replay is held back, after the hold.
 */
export class SessionUpdates {
  /** Sessions conch left for another (`/clear`, `/fork`): their late updates are not this one's. */
  readonly left = new Set<string>();
  /** A replay that came before conch's log was in waits here (`session-load.ts`). */
  hold?: ReplayHold;

  /** `opensNew`: the session being opened is a new one, so updates for any other id are another session's. */
  constructor(
    private readonly events: SessionEvents,
    private readonly opensNew: () => boolean,
  ) {}

  /** An extension notification: only the turn signals the profile layer knows are this session's events. */
  signal(method: string, params: unknown): void {
    if (!SIGNAL_NOTIFICATIONS.has(method)) return;
    if (this.hold?.take(() => this.signal(method, params))) return;
    const sid = this.events.state.info?.sessionId;
    const of = (params as { sessionId?: unknown } | undefined)?.sessionId;
    if (sid && typeof of === "string" && of !== sid) return;
    this.events.dispatch({ type: "agent_signal", method, params });
  }

  /** A `session/update` notification. */
  update(n: SessionNotification): void {
    if (this.hold?.take(() => this.update(n))) return;
    const { events } = this;
    const sid = events.state.info?.sessionId;
    // Updates for another session on the same connection are not ours (sessions start with no id yet).
    // A subagent's own session (ACP subagents draft) belongs to this one.
    const ours = events.state.subagentSessions?.[n.sessionId] !== undefined;
    if (sid && n.sessionId && n.sessionId !== sid && !ours && (this.opensNew() || this.left.has(n.sessionId))) return;
    events.dispatch({ type: "update", notification: n, history: events.state.replaying || undefined });
  }
}
