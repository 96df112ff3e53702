import type { McpServer } from "@agentclientprotocol/sdk";
import { advertisesSteering, describeRpcError, type ClientHooks, type SessionSetup } from "../acp/agent-connection.js";
import { agentCalled } from "../agents/presets.js";
import type { SessionInfo } from "../session/events.js";
import { ConchError, messageOf } from "../errors/conch-error.js";
import { startAgentLink } from "./agent/connect-agent.js";
import type { OrchestratorOptions, ResumedLog } from "./orchestrator-options.js";
import type { AgentPort, AgentRequests, AgentSlot, PendingDecisions, SessionEvents, TerminalService } from "./ports.js";
import { loadSession, reopenWith } from "./session-load.js";
import { logIn } from "./session-login.js";
import { ReplayHold } from "./replay-hold.js";
import { SessionUpdates } from "./session-updates.js";
import { isAuthRequired, openedSession, passedDirectories, passedMcpServers, reopenMode, replacedSession } from "./session-response.js";

/**
 * How to open the session: a new one, an agent replay (`session/load`), `session/resume`, or
 * `reopen`: whichever of those the agent supports, best first, falling back to the local log.
 */
export type OpenMode =
  { kind: "new" } | { kind: "load"; sessionId: string } | { kind: "resume"; sessionId: string } | { kind: "reopen"; sessionId: string };

/** The client hooks the other parts answer (bursts, permissions, questions, notices, writes); the opener adds the rest. */
export type PartHooks = Omit<ClientHooks, "onUpdate" | "root" | "additionalRoots" | "terminals">;

/** What the opener needs: the options, the queue, its own requests, the desks, and the turn to halt when conch is killed. */
export interface SessionOpenerPorts {
  opts: OrchestratorOptions;
  events: SessionEvents;
  requests: AgentRequests;
  /** The permission and question desks: answered `cancelled` on quitting, dropped when the agent exits. */
  decisions: PendingDecisions[];
  hooks: PartHooks;
  /** The log being resumed, read when first asked for. */
  history(): Promise<ResumedLog>;
  /** Shows the local log's transcript: for agents that cannot replay it. */
  showLocalHistory(): Promise<void>;
  /** The turn driver: it makes no more decisions once conch is killed. */
  turn: { halt(): void };
}

/**
 * Starts the agent and opens the session at it: new, load, resume, or reopen (at start and after a
 * restart), and the login the agent may want first. It holds the agent's link and the terminals;
 * `session-close.ts` is the way out.
 */
export class SessionOpener implements AgentSlot {
  link?: AgentPort;
  /** The session's terminals (client PTYs and display-only panes), once started. */
  terminals?: TerminalService;
  private closing = false;
  /** Aborts an agent start still in flight when conch quits. */
  private readonly starting = new AbortController();
  private openMode: OpenMode = { kind: "new" };
  private mcp: McpServer[] = [];
  /** The additional directories the open session was given (empty when the agent takes none). */
  private dirs: string[] = [];
  /** A session conch meant to continue whose load or resume failed: `/restart` tries it again. */
  private unopened?: string;
  /** How many times the agent was started in this run (`/restart` starts it again). */
  private starts = 0;
  /** What the agent sends about sessions, taken into this one's events. */
  private readonly updates: SessionUpdates;

  constructor(private readonly ports: SessionOpenerPorts) {
    this.updates = new SessionUpdates(ports.events, () => this.openMode.kind === "new");
  }

  /**
   * Starts the agent and opens the session. Rejects with a user-facing error when it cannot. When
   * the agent wants a login first, resolves with `state.auth` set: call `authenticate`.
   */
  async start(mode: OpenMode = { kind: "new" }): Promise<void> {
    const { opts, events, decisions } = this.ports;
    const { agent, cwd } = opts;
    this.terminals = opts.terminals?.((ev) => events.dispatch(ev), cwd);
    const hooks: ClientHooks = {
      ...this.ports.hooks,
      onUpdate: (n) => this.updates.update(n),
      onExtNotification: (method, params) => this.updates.signal(method, params),
      holdReads: () => this.updates.hold?.readsHeld() ?? this.ports.hooks.holdReads?.(),
      root: () => opts.cwd,
      additionalRoots: () => this.dirs,
      terminals: this.terminals,
    };
    const withTerminals = this.terminals !== undefined;
    let link: AgentPort;
    try {
      link = opts.connect
        ? await opts.connect(hooks, withTerminals)
        : await startAgentLink(
            {
              agent,
              cwd,
              traceFile: opts.traceFile,
              logFile: opts.logFile,
              terminals: withTerminals,
              mcpServers: opts.mcpServers,
              startTimeoutMs: opts.startTimeoutMs,
              signal: this.starting.signal,
              attempt: ++this.starts,
            },
            hooks,
          );
    } catch (err) {
      throw this.startFailed(err);
    }
    if (this.closing) {
      await link.stop();
      throw new Error("conch is quitting");
    }
    this.link = link;
    events.dispatch({
      type: "agent_ready",
      info: link.init.agentInfo,
      capabilities: link.init.agentCapabilities,
      ...(advertisesSteering(link.init) ? { steering: true } : {}),
    });
    link.exited.then((exit) => {
      if (this.link !== link) return;
      const unasked = !(exit.expected || this.closing);
      if (unasked) {
        // Nothing it started is followed any more: its terminals and what it left running stop now, not at quit.
        this.terminals?.stopAgentTerminals?.();
        void link.stop().catch(() => undefined);
      }
      events.dispatch({
        type: "agent_exited",
        code: exit.code,
        signal: exit.signal,
        stderrTail: exit.stderrTail,
        expected: exit.expected || this.closing,
        ...(exit.reason ? { reason: exit.reason } : {}),
      });
      for (const desk of decisions) desk.drop();
    });
    const caps = link.init.agentCapabilities ?? {};
    this.openMode = mode.kind === "reopen" ? await reopenWith(caps, mode.sessionId, this.agentName(), this.ports) : mode;
    const mcp = passedMcpServers(opts.mcpServers ?? [], caps, this.agentName());
    if (mcp.warning) events.dispatch({ type: "notice", level: "warning", text: mcp.warning });
    this.mcp = mcp.servers;
    const dirs = passedDirectories(opts.additionalDirectories ?? [], caps, this.agentName());
    if (dirs.warning) events.dispatch({ type: "notice", level: "warning", text: dirs.warning });
    this.dirs = dirs.dirs;
    await this.openSession();
  }

  /** Whether the session is opened by the agent's replay (`session/load`), as far as known yet. */
  get replays(): boolean {
    return this.openMode.kind === "load";
  }

  /** The agent as named to the user: a raw command line or a URL by the name it gives itself, once it has. */
  private agentName(): string {
    const { agent } = this.ports.opts;
    const own = agent.via === "command" || agent.via === "remote" ? this.link?.init.agentInfo?.name : undefined;
    return own ?? agentCalled(agent);
  }

  /** Sends session/new, load or resume for the open mode; a login request becomes `state.auth`. */
  async openSession(): Promise<void> {
    const { opts, events, requests } = this.ports;
    const link = this.link!;
    const { cwd } = opts;
    const mode = this.openMode;
    const setup = this.setup();
    const caps = link.init.agentCapabilities ?? {};
    const agentName = this.agentName();
    const base = { cwd, agentName, agentInfo: link.init.agentInfo, agentCapabilities: caps };
    const started = (info: SessionInfo) => {
      this.unopened = undefined;
      events.dispatch({ type: "session_started", info });
    };
    const gaveUp = new AbortController();
    try {
      if (mode.kind === "load") {
        const load = {
          events,
          requests,
          terminals: this.terminals,
          history: () => this.ports.history(),
          holdReplay: () => (this.updates.hold = new ReplayHold(this.ports.hooks.onBurst)),
        };
        started(await loadSession(load, link, mode.sessionId, base, setup, gaveUp));
      } else if (mode.kind === "resume") {
        const resp = await requests.run((ctl) => link.conn.resumeSession(mode.sessionId, cwd, setup, ctl), gaveUp);
        started(openedSession(base, mode.sessionId, resp, "resume"));
      } else {
        const resp = await requests.run((ctl) => link.conn.newSession(cwd, setup, ctl), gaveUp);
        started(openedSession(base, resp.sessionId, resp, "new"));
      }
    } catch (err) {
      if (mode.kind === "load" || mode.kind === "resume") this.unopened = mode.sessionId;
      const methods = link.init.authMethods ?? [];
      if (isAuthRequired(err) && methods.length > 0) {
        events.dispatch({ type: "auth_required", methods, message: describeRpcError(err) });
        return;
      }
      const message = gaveUp.signal.aborted
        ? `gave up opening the session with ${agentName} (the agent was asked to stop: $/cancel_request); /restart tries again`
        : `could not open a session with ${agentName}: ${describeRpcError(err)}`;
      events.dispatch({ type: "failed", kind: "session-open", message });
      throw new ConchError("session-open", message);
    }
  }

  /**
   * An agent that did not start becomes a `failed` event like any other failure (its stderr tail
   * as detail), unless conch is quitting; the caller gets the typed error.
   */
  private startFailed(err: unknown): ConchError {
    const failure = err instanceof ConchError ? err : new ConchError("agent-start", messageOf(err));
    if (!this.closing)
      this.ports.events.dispatch({
        type: "failed",
        kind: failure.kind,
        message: failure.message,
        ...(failure.detail ? { stderrTail: failure.detail } : {}),
      });
    return failure;
  }

  /**
   * Completes a login with one of the agent's auth methods, then opens the session again: the
   * agent's own `authenticate`, or a login command run in a terminal pane.
   */
  async authenticate(methodId: string): Promise<void> {
    const { opts, events, requests } = this.ports;
    const link = this.link;
    if (!link) return;
    const ctx = { agentName: opts.agent.name, cwd: opts.cwd, link, terminals: this.terminals, requests };
    if (await logIn(methodId, opts.agent.command, events, ctx)) await this.openSession();
  }

  /**
   * Starts the agent again after a failure and continues the same session when it can. A session
   * whose load or resume failed is tried again; when it still cannot be opened, a new session takes
   * its place, and the transcript says so and names the old one.
   */
  async restart(): Promise<void> {
    const { events } = this.ports;
    const old = this.link;
    this.link = undefined;
    await old?.stop();
    this.terminals?.dispose();
    events.dispatch({ type: "restarted" });
    const id = events.state.info?.sessionId;
    // The transcript is still on screen: resume (no replay) is preferred over a load that repeats it.
    if (id && old) return this.start(reopenMode(old.init.agentCapabilities ?? {}, id, "no-replay"));
    const unopened = this.unopened;
    if (!unopened) return this.start({ kind: "new" });
    try {
      await this.start({ kind: "reopen", sessionId: unopened });
    } catch (err) {
      // The agent runs but will not open that session: go on in a new one, and say so.
      if (!this.link || this.closing || events.state.auth) throw err;
      events.dispatch({ type: "restarted" });
      events.dispatch({ type: "notice", level: "warning", text: replacedSession(unopened, messageOf(err)) });
      this.openMode = { kind: "new" };
      await this.openSession();
    }
  }

  /** What every session/new, load, resume and fork carries besides the cwd. */
  setup(): SessionSetup {
    return { mcpServers: this.mcp, additionalDirectories: this.dirs };
  }

  /** How the next `openSession` opens: after `/clear` or `/fork` a new session, after `/logout` this one again. */
  reopenAs(mode: OpenMode): void {
    this.openMode = mode;
  }

  /** conch leaves a session for another: its late updates are no longer this session's. */
  leave(sessionId: string): void {
    this.updates.left.add(sessionId);
  }

  /** conch stays in a session it meant to leave (the switch failed). */
  stay(sessionId: string): void {
    this.updates.left.delete(sessionId);
  }

  /** conch is quitting: an agent still starting is stopped, and one that exits now was expected to. */
  beginClosing(): void {
    this.closing = true;
    this.starting.abort();
  }

  /** Kills the agent and every terminal now, synchronously: for `process.on("exit")`. */
  killNow(): void {
    this.closing = true;
    this.ports.turn.halt();
    this.terminals?.dispose();
    this.link?.killNow();
  }
}
