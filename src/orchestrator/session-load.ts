import type { AgentCapabilities } from "@agentclientprotocol/sdk";
import type { SessionSetup } from "../acp/agent-connection.js";
import { describeRpcError } from "../acp/agent-connection.js";
import type { SessionInfo } from "../session/events.js";
import { localHistoryOf } from "../session/local-history.js";
import { foldEvents } from "../session/reduce.js";
import type { ResumedLog } from "./orchestrator-options.js";
import type { ReplayHold } from "./replay-hold.js";
import type { AgentPort, AgentRequests, SessionEvents, TerminalService } from "./ports.js";
import { isAuthRequired, openedSession, reopenMode } from "./session-response.js";

/** What a load needs: the queue, conch's requests, the terminals, and the local log being resumed. */
export interface LoadContext {
  events: SessionEvents;
  requests: AgentRequests;
  terminals?: TerminalService;
  /** The log being resumed, read when first asked for. */
  history(): Promise<ResumedLog>;
  /** Holds back what the agent sends (updates, signals) from now until the hold is released. */
  holdReplay(): ReplayHold;
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
  const { events, requests } = ctx;
  // Sent before conch's log is in: the agent replays while conch reads and folds it, held back until then.
  const hold = ctx.holdReplay();
  const loading = requests.run((ctl) => link.conn.loadSession(sessionId, base.cwd, setup, ctl), gaveUp);
  // The agent may refuse before the log is in; its refusal is awaited below, not an unhandled rejection meanwhile.
  loading.catch(() => undefined);
  let log: ResumedLog;
  try {
    log = await ctx.history();
  } catch (err) {
    hold.drop(loading);
    throw err;
  }
  const { events: history, state: folded } = log;
  const local = history.length ? localHistoryOf(folded ?? foldEvents(history)) : undefined;
  // Before the agent's first replayed update: each replayed call looks as the log knew it from the
  // first, and the turns the person interrupted (the replay does not say so) are marked as they were.
  events.dispatch({ type: "replay_started", ...(local ? { local } : {}) });
  for (const ev of history) ctx.terminals?.observe?.(ev);
  hold.release();
  try {
    const resp = await loading;
    events.dispatch({ type: "replay_ended" });
    return openedSession(base, sessionId, resp, "load");
  } catch (err) {
    const error = isAuthRequired(err) || gaveUp.signal.aborted ? undefined : `session/load failed: ${describeRpcError(err)}`;
    // What conch's log knew stays known: undo is local and works from it.
    events.dispatch({ type: "replay_ended", error });
    throw err;
  }
}

/**
 * How a session conch meant to continue is opened again at an agent: a replay (load) is the
 * agent's own transcript; after a resume, or at an agent that can do neither, conch's log shows it.
 */
export async function reopenWith(
  caps: AgentCapabilities,
  sessionId: string,
  agentName: string,
  ports: { events: SessionEvents; showLocalHistory(): Promise<void> },
): Promise<ReturnType<typeof reopenMode>> {
  const chosen = reopenMode(caps, sessionId, "replay");
  if (chosen.kind !== "load") await ports.showLocalHistory();
  if (chosen.kind === "new") {
    ports.events.dispatch({
      type: "notice",
      level: "warning",
      text: `${agentName} can neither load nor resume sessions: the transcript above is conch's local record, and this is a new session in the same directory`,
    });
  }
  return chosen;
}
