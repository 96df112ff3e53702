import type { SessionSetup } from "../acp/agent-connection.js";
import { describeRpcError } from "../acp/agent-connection.js";
import type { SessionEvent, SessionInfo } from "../session/events.js";
import { localHistoryOf } from "../session/local-history.js";
import { foldEvents } from "../session/reduce.js";
import type { AgentPort, AgentRequests, SessionEvents, TerminalService } from "./ports.js";
import { isAuthRequired, openedSession } from "./session-response.js";

/** What a load needs: the queue, conch's requests, the terminals, and the local log being resumed. */
export interface LoadContext {
  events: SessionEvents;
  requests: AgentRequests;
  terminals?: TerminalService;
  history: readonly SessionEvent[];
}

/**
 * `session/load`: the agent replays the session, and its replay is the transcript; conch's own log
 * fills what it lacks (screens, kinds, running commands). Resolves with what the session was opened
 * with; a failure is on the transcript (unless it is a login or conch gave up) and is rethrown.
 */
export async function loadSession(
  ctx: LoadContext,
  link: AgentPort,
  sessionId: string,
  base: Pick<SessionInfo, "cwd" | "agentName" | "agentInfo" | "agentCapabilities">,
  setup: SessionSetup,
  gaveUp: AbortController,
): Promise<SessionInfo> {
  const { events, requests, history } = ctx;
  events.dispatch({ type: "replay_started" });
  const local = history.length ? localHistoryOf(foldEvents(history)) : undefined;
  for (const ev of history) ctx.terminals?.observe?.(ev);
  try {
    const resp = await requests.run((ctl) => link.conn.loadSession(sessionId, base.cwd, setup, ctl), gaveUp);
    events.dispatch({ type: "replay_ended", local });
    return openedSession(base, sessionId, resp, "load");
  } catch (err) {
    const error = isAuthRequired(err) || gaveUp.signal.aborted ? undefined : `session/load failed: ${describeRpcError(err)}`;
    // What conch's log knew stays known: undo is local and works from it.
    events.dispatch({ type: "replay_ended", error, local });
    throw err;
  }
}
