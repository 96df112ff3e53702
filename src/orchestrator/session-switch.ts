import type { SessionSetup } from "../acp/agent-connection.js";
import type { ResolvedAgent } from "../agents/presets.js";
import { describeRpcError } from "../acp/agent-connection.js";
import type { AgentRequests, AgentSlot, SessionEvents } from "./ports.js";
import type { OpenMode } from "./session-opener.js";
import { reopenMode } from "./session-response.js";

/** What the switch needs of the opener: which sessions are left, how the next one opens, and opening it. */
export interface SessionDoor extends AgentSlot {
  leave(sessionId: string): void;
  stay(sessionId: string): void;
  reopenAs(mode: OpenMode): void;
  openSession(): Promise<void>;
  setup(): SessionSetup;
}

/** What the switch needs: the queue, the opener, conch's own requests, and the agent's name for notices. */
export interface SessionSwitchPorts {
  events: SessionEvents;
  door: SessionDoor;
  requests: AgentRequests;
  agent: ResolvedAgent;
  cwd: string;
}

/** Leaving the session for another at the same agent: `/clear`, `/fork`, and `/logout` (which comes back to it). */
export class SessionSwitch {
  constructor(private readonly ports: SessionSwitchPorts) {}

  /**
   * A fresh conversation (`/clear`): the session is closed at the agent (`session/close`, when
   * advertised) and a new one opened in the same directory, with the same MCP servers and
   * directories. Its transcript stays in the old session's log.
   */
  async newConversation(): Promise<void> {
    const { events, door, requests } = this.ports;
    const refused = this.cannotLeave("start a new session");
    if (refused) return events.dispatch({ type: "notice", level: "error", text: refused });
    const link = door.link!;
    const old = events.state.info!.sessionId;
    const closes = !!link.init.agentCapabilities?.sessionCapabilities?.close;
    door.leave(old);
    events.dispatch({ type: "session_left", sessionId: old, closed: closes });
    if (closes) {
      try {
        await requests.run((ctl) => link.conn.closeSession(old, ctl));
      } catch (err) {
        events.dispatch({
          type: "notice",
          level: "warning",
          text: `the agent did not close the old session ${old}: ${describeRpcError(err)}`,
        });
      }
    }
    door.reopenAs({ kind: "new" });
    await door.openSession().catch(() => undefined);
    const sid = events.state.info?.sessionId;
    if (sid && sid !== old)
      events.dispatch({ type: "notice", level: "info", text: `new session ${sid}${closes ? ` (the agent closed ${old})` : ""}` });
  }

  /**
   * `/fork`: a new session that starts from this one's history (unstable `session/fork`, where the
   * agent advertises it). The old session stays as it was, to resume later.
   */
  async fork(): Promise<void> {
    const { events, door, requests, agent, cwd } = this.ports;
    const caps = door.link?.init.agentCapabilities?.sessionCapabilities as { fork?: unknown } | undefined;
    if (door.link && !caps?.fork) return events.dispatch({ type: "notice", level: "error", text: `${agent.name} cannot fork sessions` });
    const refused = this.cannotLeave("fork");
    if (refused) return events.dispatch({ type: "notice", level: "error", text: refused });
    const link = door.link!;
    const info = events.state.info!;
    const old = info.sessionId;
    door.leave(old);
    events.dispatch({ type: "session_left", sessionId: old, closed: false });
    try {
      const resp = await requests.run((ctl) => link.conn.forkSession(old, cwd, door.setup(), ctl));
      door.reopenAs({ kind: "new" });
      events.dispatch({
        type: "session_started",
        info: {
          ...info,
          sessionId: resp.sessionId,
          modes: resp.modes ?? info.modes,
          configOptions: resp.configOptions ?? info.configOptions,
          origin: "fork",
        },
      });
      events.dispatch({
        type: "notice",
        level: "info",
        text: `forked: this is session ${resp.sessionId}, a copy of ${old} (which stays as it was: conch -r ${old})`,
      });
    } catch (err) {
      // Back to the session that was: nothing changed at the agent.
      door.stay(old);
      events.dispatch({ type: "session_started", info });
      events.dispatch({ type: "notice", level: "error", text: `could not fork the session: ${describeRpcError(err)}` });
    }
  }

  /**
   * `/logout` (where the agent advertises `auth.logout`): the agent forgets the login, and the
   * session waits for a new one (`state.auth`), after which it goes on where it was.
   */
  async logout(): Promise<void> {
    const { events, door, requests, agent } = this.ports;
    const link = door.link;
    if (!link) return;
    if (!link.init.agentCapabilities?.auth?.logout)
      return events.dispatch({ type: "notice", level: "error", text: `${agent.name} does not offer a logout` });
    const refused = this.cannotLeave("log out");
    if (refused) return events.dispatch({ type: "notice", level: "error", text: refused });
    try {
      await requests.run((ctl) => link.conn.logout(ctl));
    } catch (err) {
      return events.dispatch({ type: "notice", level: "error", text: `could not log out: ${describeRpcError(err)}` });
    }
    const sid = events.state.info?.sessionId;
    // After the login, the same session goes on (resumed without a replay: its transcript is on screen).
    if (sid) door.reopenAs(reopenMode(link.init.agentCapabilities ?? {}, sid, "no-replay"));
    const methods = link.init.authMethods ?? [];
    // A command line is named by its program ("node"): the agent's own name says more.
    const name = events.state.info?.agentName ?? agent.name;
    if (!methods.length) {
      return events.dispatch({
        type: "notice",
        level: "warning",
        text: `logged out of ${name}; it offers no login method here: log in outside conch, then /restart`,
      });
    }
    events.dispatch({ type: "auth_required", methods, message: `logged out of ${name}: log in again to go on` });
  }

  /** Why the session cannot be left for another right now, or undefined when it can. */
  private cannotLeave(what: string): string | undefined {
    const { events, door } = this.ports;
    if (!door.link || !events.state.info) return `there is no open session to ${what}`;
    const phase = events.state.phase;
    if (phase !== "idle" && phase !== "draining") return `the agent is busy: wait for the turn to end, or cancel it, then ${what}`;
    return undefined;
  }
}
