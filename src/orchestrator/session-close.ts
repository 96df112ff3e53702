import type { AgentRequests, AgentSlot, EventSink, PendingDecisions, SessionEvents, TerminalService } from "./ports.js";

/** How long quitting waits for the cancel and the answers to reach the agent before stopping it. */
const FLUSH_MS = 500;
/** How long quitting waits for the agent to answer `session/close` before stopping it anyway. */
const CLOSE_WAIT_MS = 1000;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/** What quitting needs: every part that can still be waiting on something, or running. */
export interface SessionClosePorts {
  events: SessionEvents;
  /** The opener: the agent, its terminals, and a start that may still be under way. */
  opener: AgentSlot & { readonly terminals?: TerminalService; beginClosing(): void };
  /** The turn driver: no more decisions, and a running turn is cancelled. */
  turn: { halt(): void; cancel(): void };
  requests: AgentRequests;
  decisions: PendingDecisions[];
  sink?: EventSink;
}

/**
 * The one way out, whatever the reason (quit, signals, print mode's end, interrupt or timeout):
 * every pending permission and question is answered `cancelled`, a turn the agent is still working
 * on (a prompt in flight, or a question waiting) gets `session/cancel`, and once those have
 * reached the agent (or could not), the agent is stopped (EOF, SIGTERM to its whole process tree,
 * SIGKILL) with every terminal; before that, an agent that can close sessions is asked to
 * (`session/close`). A turn that only waits on background work is not cancelled: the agent
 * answered it, and a resume shows that work again. An agent still starting is stopped too.
 * Nothing conch started outlives this.
 */
export async function closeSession(ports: SessionClosePorts): Promise<void> {
  const { events, opener, turn, requests, decisions, sink } = ports;
  opener.beginClosing();
  turn.halt();
  // Before anything reaches the agent: what it says of a command it kills from here (one its turn
  // left running, or one the cancel below leaves running) is not how the command ended.
  if (events.state.openToolIds.size > 0) events.dispatch({ type: "agent_stopping" });
  const { pendingPrompts, permissions, questions } = events.state;
  requests.abandonAll();
  if (pendingPrompts.length || permissions.length || questions.length) turn.cancel();
  for (const desk of decisions) desk.cancelAll();
  // An agent that stopped reading its stdin must not hold conch: its answers are best effort.
  if (opener.link?.flush) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([opener.link.flush(), new Promise((r) => (timer = setTimeout(r, FLUSH_MS)))]);
    clearTimeout(timer);
  }
  opener.terminals?.dispose();
  const sid = events.state.info?.sessionId;
  const link = opener.link;
  // Told first, the agent ends and frees the session itself; a slow answer does not hold up quitting.
  if (sid && link?.init.agentCapabilities?.sessionCapabilities?.close && !link.exit) {
    await Promise.race([link.conn.closeSession(sid).catch(() => undefined), pause(CLOSE_WAIT_MS)]);
  }
  await opener.link?.stop();
  sink?.sync();
}
