import type { AgentCapabilities, ContentBlock, CreateElicitationResponse, McpServer, SessionNotification } from "@agentclientprotocol/sdk";
import {
  advertisesSteering,
  describeRpcError,
  type RequestControl,
  type SessionSetup,
  type TerminalHost,
} from "../acp/agent-connection.js";
import type { WrittenFile } from "../acp/fs-handlers.js";
import type { ResolvedAgent } from "../agents/presets.js";
import type { TerminalAccess } from "../terminals/terminal-access.js";
import type { FileVersion, SessionEvent, SessionEventInput, SessionInfo } from "../session/events.js";
import { contentHash, PRE_IMAGE_MAX_FILE_BYTES, tooLargeToKeep, type PreImageStore } from "../store/pre-image-store.js";
import { localHistoryOf } from "../session/local-history.js";
import { foldEvents, reduce, reduceBatch } from "../session/reduce.js";
import { initialSessionState, type SessionState } from "../session/state.js";
import { profileOf } from "../session/profiles/select-profile.js";
import { planAuth, shellLine } from "../agents/auth-methods.js";
import type { AgentCommand } from "../agents/agent-process.js";
import { describeExit, type AgentPort } from "./agent-link.js";
import { startAgentLink } from "./connect-agent.js";
import { modelOption, selectValues } from "../session/config-options.js";
import type { ClientHooks } from "../acp/agent-connection.js";
import { PermissionDesk } from "./permission-desk.js";
import { isAuthRequired, readModels, reopenMode, usableMcpServers } from "./session-response.js";
import { QuestionDesk } from "./question-desk.js";
import type { PermissionPolicy } from "./permission-policy.js";
import { DEFAULT_TIMING, nextAction, type TurnTiming } from "./turn-machine.js";
import { applyUndo, planUndo, type UndoAnswer, type UndoIo, type UndoOutcome, type UndoPlan } from "./turn-undo.js";

/** Where the orchestrator writes its events: the durable session log. */
export interface EventSink {
  append(event: SessionEvent): void;
  /** Write out what was appended (after each transition; a sink may gather a burst into one write). */
  flush?(): void;
  /** Make what was appended durable; called at turn boundaries. */
  sync(): void;
}

/** Client-owned terminals for `terminal/create`, what the UI draws of them, and a way to free them all. */
export interface TerminalService extends TerminalHost, TerminalAccess {
  /** Runs a login command in a pane the user can type into; resolves with its exit. */
  runLogin?(command: AgentCommand, cwd: string): Promise<{ exitCode: number | null; signal: string | null }>;
  /** Sees every event (live and from the log), to keep display terminals' screens current. */
  observe?(ev: SessionEvent): void;
  dispose(): void;
}

export interface OrchestratorOptions {
  agent: ResolvedAgent;
  cwd: string;
  policy: PermissionPolicy;
  timing?: Partial<TurnTiming>;
  traceFile?: string;
  logFile?: string;
  sink?: EventSink;
  mcpServers?: McpServer[];
  /** Directories beyond `cwd` the session may use (`--add-dir`): passed to agents that take them, and open to fs/*. */
  additionalDirectories?: string[];
  /** Builds the terminal service; it reports output and exits as events through `emit`. */
  terminals?: (emit: (ev: SessionEventInput) => void, cwd: string) => TerminalService;
  /** Starts the agent; defaults to spawning it. Tests pass a scripted fake. */
  connect?: (hooks: ClientHooks, withTerminals: boolean) => Promise<AgentPort>;
  /** Events to fold before anything happens: a session log read back for `--resume`. */
  history?: SessionEvent[];
  /** How long the agent may take to answer `initialize`. */
  startTimeoutMs?: number;
  /** Where what the agent's writes replaced is kept, for `/undo`; without it, writes are not tracked. */
  preImages?: PreImageStore;
  now?: () => number;
}

/**
 * How to open the session: a new one, an agent replay (`session/load`), `session/resume`, or
 * `reopen`: whichever of those the agent supports, best first, falling back to the local log.
 */
export type OpenMode =
  { kind: "new" } | { kind: "load"; sessionId: string } | { kind: "resume"; sessionId: string } | { kind: "reopen"; sessionId: string };

/** How long quitting waits for the cancel and the answers to reach the agent before stopping it. */
const FLUSH_MS = 500;
/** How long quitting waits for the agent to answer `session/close` before stopping it anyway. */
const CLOSE_WAIT_MS = 1000;
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/** Events after which the log is made durable: the turn boundaries, and what the user queued. */
const SYNC_EVENTS: ReadonlySet<SessionEvent["type"]> = new Set(["prompt_response", "settled", "agent_exited", "queue_added"]);

/** Called after every transition with the new state and the event that made it. */
type Listener = (state: SessionState, event?: SessionEvent) => void;

/**
 * One per session. Every input becomes an event handled in order by one transition: reduce,
 * append to the log, publish, then act on what the turn machine decides. The only writer of
 * the session log; the UI and print mode read its state and call its intents.
 */
export class Orchestrator {
  state: SessionState = initialSessionState();
  link?: AgentPort;
  private listeners = new Set<Listener>();
  private queue: SessionEvent[] = [];
  private running = false;
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private readonly permissions: PermissionDesk;
  private readonly questions: QuestionDesk;
  private turnCounter = 0;
  private queueCounter = 0;
  /** The session's terminals (client PTYs and display-only panes), once started. */
  terminals?: TerminalService;
  readonly timing: TurnTiming;
  private readonly now: () => number;
  private shuttingDown = false;
  private stopped?: Promise<void>;
  /** Aborts an agent start still in flight when conch quits. */
  private readonly starting = new AbortController();
  private openMode: OpenMode = { kind: "new" };
  private mcp: McpServer[] = [];
  /** The additional directories the open session was given (empty when the agent takes none). */
  private dirs: string[] = [];
  /** How many times the agent was started in this run (`/restart` starts it again). */
  private starts = 0;
  /** Sessions conch left for another (`/clear`, `/fork`): their late updates are not this one's. */
  private readonly left = new Set<string>();
  /** conch's own requests still waiting for the agent; giving up on one sends `$/cancel_request`. */
  private readonly inFlight = new Set<AbortController>();

  constructor(readonly opts: OrchestratorOptions) {
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    this.now = opts.now ?? Date.now;
    // Turn ids go on from the log's: a resumed run that said "t1" again would fold wrongly from disk.
    for (const ev of opts.history ?? [])
      if (ev.type === "prompt_sent") this.turnCounter = Math.max(this.turnCounter, Number(/^t(\d+)$/.exec(ev.turnId)?.[1] ?? 0));
    this.permissions = new PermissionDesk(opts.policy, (ev) => this.dispatch(ev));
    this.questions = new QuestionDesk(opts.policy === "ask", (ev) => this.dispatch(ev));
  }

  /** Shows the local log's transcript: for agents that cannot replay, and for read-only views. */
  private foldHistory(): void {
    for (const ev of this.opts.history ?? []) {
      this.state = reduce(this.state, ev);
      this.terminals?.observe?.(ev);
    }
    this.turnCounter = Math.max(this.turnCounter, this.state.turns.length);
    for (const fn of this.listeners) fn(this.state);
  }

  /** Listens to every state change. Returns the unsubscribe function. */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * The serial queue: events are handled in arrival order, even when handlers emit more. What came
   * in one read of the agent's output (a burst) is handled as one batch: one copy of the state, one
   * write to the log, one decision of the turn machine.
   */
  dispatch(input: SessionEventInput): void {
    this.queue.push({ ...input, at: this.now() } as SessionEvent);
    // Only the agent's updates wait for the end of a burst: conch's own events (a session opened,
    // a prompt answered) must be in the state when the code that dispatched them goes on.
    if (this.running || (this.inBurst && input.type === "update")) return;
    this.drain();
  }

  private drain(): void {
    this.running = true;
    try {
      while (this.queue.length) {
        const batch = this.queue;
        this.queue = [];
        if (batch.length === 1) this.transition(batch[0]);
        else this.transitionBatch(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private inBurst = false;

  /**
   * The connection is reading the agent's output: its updates wait in the queue until the reads of
   * this turn of the event loop are done (the pipe may deliver many 64 KiB reads in one go), then go
   * as one batch. Any other event dispatched meanwhile takes the waiting updates along before it, so
   * the order is the wire's.
   */
  private onBurst(phase: "start" | "end"): void {
    if (phase === "start") {
      this.inBurst = true;
      return;
    }
    if (this.burstEnd) return;
    this.burstEnd = setImmediate(() => {
      this.burstEnd = undefined;
      this.inBurst = false;
      this.catchUp();
    });
  }

  private burstEnd?: NodeJS.Immediate;

  /**
   * A batch of events through one transient draft: the orchestrator owns its state and only the
   * latest is read (listeners get it after every transition), so nothing is copied per event.
   * If the reducer refuses one, the session fails with the reason, as one by one.
   */
  private transitionBatch(events: SessionEvent[]): void {
    let next: SessionState;
    try {
      next = reduceBatch(this.state, events, { transient: true });
    } catch (err) {
      const failure: SessionEvent = {
        type: "failed",
        at: events[events.length - 1].at,
        message: `internal error handling a burst of ${events.length} events: ${(err as Error).message}`,
      };
      this.opts.sink?.append(failure);
      this.state = reduce(this.state, failure);
      this.publish(failure);
      return;
    }
    this.state = next;
    let sync = false;
    for (const ev of events) {
      this.opts.sink?.append(ev);
      this.terminals?.observe?.(ev);
      sync ||= SYNC_EVENTS.has(ev.type);
    }
    if (sync) this.opts.sink?.sync();
    else this.opts.sink?.flush?.();
    for (const ev of events) this.publish(ev);
    this.act();
  }

  private transition(ev: SessionEvent): void {
    let next: SessionState;
    try {
      next = reduce(this.state, ev);
    } catch (err) {
      // The reducer refused an input: keep what is logged, show why, stop the turn.
      const failure: SessionEvent = { type: "failed", at: ev.at, message: `internal error handling ${ev.type}: ${(err as Error).message}` };
      this.opts.sink?.append(failure);
      this.state = reduce(this.state, failure);
      this.publish(failure);
      return;
    }
    this.state = next;
    this.opts.sink?.append(ev);
    this.terminals?.observe?.(ev);
    if (SYNC_EVENTS.has(ev.type)) this.opts.sink?.sync();
    else this.opts.sink?.flush?.();
    this.publish(ev);
    this.act();
  }

  private publish(ev: SessionEvent): void {
    for (const fn of this.listeners) fn(this.state, ev);
  }

  /** Turns the turn machine's decision into events and timers. */
  private act(): void {
    if (this.shuttingDown || !this.link) return;
    const action = nextAction(this.state, this.now(), this.timing);
    switch (action.type) {
      case "send_queued":
        this.startPrompt(action.blocks ?? [{ type: "text", text: action.text }], action.id);
        return;
      case "settle":
        this.dispatch({ type: "settled" });
        return;
      case "stall":
        this.dispatch({ type: "work_stalled", kind: action.kind, id: action.id });
        return;
      case "wait":
        this.schedule(action.until ?? this.now() + this.timing.quietMs);
        return;
      case "none":
        return;
    }
  }

  private schedule(at: number): void {
    if (this.timer && at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.act();
      },
      Math.max(0, at - this.now()) + 5,
    );
  }

  // ---- lifecycle -------------------------------------------------------------------------------

  /**
   * Starts the agent and opens the session. Rejects with a user-facing error when it cannot. When
   * the agent wants a login first, resolves with `state.auth` set: call `authenticate`.
   */
  async start(mode: OpenMode = { kind: "new" }): Promise<void> {
    const { agent, cwd } = this.opts;
    this.terminals = this.opts.terminals?.((ev) => this.dispatch(ev), cwd);
    const hooks: ClientHooks = {
      onUpdate: (n) => this.onUpdate(n),
      onBurst: (phase) => this.onBurst(phase),
      onPermission: (req, key, signal) => this.permissions.ask(req, key, signal),
      onQuestion: (req, key, signal) => this.questions.ask(req, key, signal),
      onQuestionComplete: (id) => this.dispatch({ type: "notice", level: "info", text: `the agent says the request ${id} is complete` }),
      onNotice: (level, text) => this.dispatch({ type: "notice", level, text }),
      root: () => this.opts.cwd,
      additionalRoots: () => this.dirs,
      missingFileReadsAsEmpty: () => profileOf(this.state).missingFileReadsAsEmpty,
      writes: this.opts.preImages ? { keepUpTo: PRE_IMAGE_MAX_FILE_BYTES, written: (w) => this.recordWrite(w) } : undefined,
      terminals: this.terminals,
    };
    const withTerminals = this.terminals !== undefined;
    const link = this.opts.connect
      ? await this.opts.connect(hooks, withTerminals)
      : await startAgentLink(
          {
            agent,
            cwd,
            traceFile: this.opts.traceFile,
            logFile: this.opts.logFile,
            terminals: withTerminals,
            mcpServers: this.opts.mcpServers,
            startTimeoutMs: this.opts.startTimeoutMs,
            signal: this.starting.signal,
            attempt: ++this.starts,
          },
          hooks,
        );
    if (this.shuttingDown) {
      await link.stop();
      throw new Error("conch is quitting");
    }
    this.link = link;
    this.dispatch({
      type: "agent_ready",
      info: link.init.agentInfo,
      capabilities: link.init.agentCapabilities,
      ...(advertisesSteering(link.init) ? { steering: true } : {}),
    });
    link.exited.then((exit) => {
      if (this.link !== link) return;
      this.dispatch({
        type: "agent_exited",
        code: exit.code,
        signal: exit.signal,
        stderrTail: exit.stderrTail,
        expected: exit.expected || this.shuttingDown,
        ...(exit.reason ? { reason: exit.reason } : {}),
      });
      this.permissions.drop();
      this.questions.drop();
    });
    const caps = link.init.agentCapabilities ?? {};
    if (mode.kind === "reopen") {
      // A replay (load) is the agent's own transcript; after a resume, conch's log supplies it.
      const chosen = reopenMode(caps, mode.sessionId, "replay");
      if (chosen.kind !== "load") this.foldHistory();
      if (chosen.kind === "new") {
        this.dispatch({
          type: "notice",
          level: "warning",
          text: `${agent.name} can neither load nor resume sessions: the transcript above is conch's local record, and this is a new session in the same directory`,
        });
      }
      mode = chosen;
    }
    this.openMode = mode;
    this.mcp = this.mcpServersFor(caps);
    this.dirs = this.directoriesFor(caps);
    await this.openSession();
  }

  /** Sends session/new, load or resume for the open mode; a login request becomes `state.auth`. */
  private async openSession(): Promise<void> {
    const link = this.link!;
    const { agent, cwd } = this.opts;
    const mode = this.openMode;
    const setup = this.setup();
    const caps = link.init.agentCapabilities ?? {};
    // A raw command line or a URL is named by its program or host; the agent's own name says more.
    const agentName = agent.via === "command" || agent.via === "remote" ? (link.init.agentInfo?.name ?? agent.name) : agent.name;
    const base = { cwd, agentName, agentInfo: link.init.agentInfo, agentCapabilities: caps };
    const gaveUp = new AbortController();
    try {
      if (mode.kind === "load") {
        this.dispatch({ type: "replay_started" });
        // The agent's replay wins; conch's own log fills what it lacks (screens, kinds, running commands).
        const history = this.opts.history ?? [];
        const local = history.length ? localHistoryOf(foldEvents(history)) : undefined;
        for (const ev of history) this.terminals?.observe?.(ev);
        try {
          const resp = await this.request((ctl) => link.conn.loadSession(mode.sessionId, cwd, setup, ctl), gaveUp);
          this.dispatch({ type: "replay_ended", local });
          this.started({
            ...base,
            sessionId: mode.sessionId,
            modes: resp.modes,
            models: readModels(resp),
            configOptions: resp.configOptions,
            origin: "load",
          });
        } catch (err) {
          this.dispatch({
            type: "replay_ended",
            error: isAuthRequired(err) || gaveUp.signal.aborted ? undefined : `session/load failed: ${describeRpcError(err)}`,
          });
          throw err;
        }
      } else if (mode.kind === "resume") {
        const resp = await this.request((ctl) => link.conn.resumeSession(mode.sessionId, cwd, setup, ctl), gaveUp);
        this.started({
          ...base,
          sessionId: mode.sessionId,
          modes: resp.modes,
          models: readModels(resp),
          configOptions: resp.configOptions,
          origin: "resume",
        });
      } else {
        const resp = await this.request((ctl) => link.conn.newSession(cwd, setup, ctl), gaveUp);
        this.started({
          ...base,
          sessionId: resp.sessionId,
          modes: resp.modes,
          models: readModels(resp),
          configOptions: resp.configOptions,
          origin: "new",
        });
      }
    } catch (err) {
      const methods = link.init.authMethods ?? [];
      if (isAuthRequired(err) && methods.length > 0) {
        this.dispatch({ type: "auth_required", methods, message: describeRpcError(err) });
        return;
      }
      const message = gaveUp.signal.aborted
        ? `gave up opening the session with ${agent.name} (the agent was asked to stop: $/cancel_request); /restart tries again`
        : `could not open a session with ${agent.name}: ${describeRpcError(err)}`;
      this.dispatch({ type: "failed", message });
      throw new Error(message);
    }
  }

  /** What every session/new, load, resume and fork carries besides the cwd. */
  private setup(): SessionSetup {
    return { mcpServers: this.mcp, additionalDirectories: this.dirs };
  }

  /**
   * Runs one of conch's own requests so that it can be given up: `cancel()` and `shutdown()` abort
   * it, which sends `$/cancel_request` and stops waiting. `mark` aborts too, so the caller can tell.
   */
  private async request<R>(call: (ctl: RequestControl) => Promise<R>, mark?: AbortController): Promise<R> {
    const controller = new AbortController();
    if (mark) controller.signal.addEventListener("abort", () => mark.abort(), { once: true });
    this.inFlight.add(controller);
    try {
      return await call({ signal: controller.signal });
    } finally {
      this.inFlight.delete(controller);
      // The updates the agent sent before its answer are in the state when the caller goes on.
      this.catchUp();
    }
  }

  /** Handles the updates a burst is holding back, now. */
  private catchUp(): void {
    if (!this.running && this.queue.length) this.drain();
  }

  /** Gives up every request of conch's still waiting for the agent (`$/cancel_request` for each). */
  private abandonRequests(): void {
    for (const controller of [...this.inFlight]) controller.abort();
    this.inFlight.clear();
  }

  /**
   * Completes a login with one of the agent's auth methods, then opens the session again: the
   * agent's own `authenticate`, or a login command run in a terminal pane.
   */
  async authenticate(methodId: string): Promise<void> {
    const method = this.state.auth?.methods.find((m) => m.id === methodId);
    if (!method || !this.link) return;
    const plan = planAuth(method, this.opts.agent.command);
    try {
      if (plan.kind === "terminal") {
        if (this.link.runsLocally === false) throw new Error(`${this.opts.agent.name} runs remotely: its terminal login cannot run here`);
        if (!this.terminals?.runLogin) throw new Error(`run this to log in, then start conch again: ${shellLine(plan.command)}`);
        const status = await this.terminals.runLogin(plan.command, this.opts.cwd);
        if (status.exitCode !== 0) throw new Error(`the login command exited ${status.signal ?? `with code ${status.exitCode}`}`);
      } else if (plan.kind === "env_var") {
        throw new Error(`set ${plan.vars.join(", ")} in the environment and start conch again`);
      } else {
        const link = this.link;
        await this.request((ctl) => link.conn.authenticate(methodId, ctl));
      }
    } catch (err) {
      this.dispatch({ type: "notice", level: "error", text: `login with ${plan.label} failed: ${describeRpcError(err)}` });
      return;
    }
    await this.openSession();
  }

  /** The `--add-dir` directories, when the agent takes them; else a warning says they were not passed. */
  private directoriesFor(caps: AgentCapabilities): string[] {
    const dirs = this.opts.additionalDirectories ?? [];
    if (!dirs.length) return [];
    if (caps.sessionCapabilities?.additionalDirectories) return dirs;
    this.dispatch({
      type: "notice",
      level: "warning",
      text: `${this.opts.agent.name} does not take additional directories, so these were not passed: ${dirs.join(", ")}`,
    });
    return [];
  }

  /** The configured MCP servers this agent can take; the others are named in a warning. */
  private mcpServersFor(caps: AgentCapabilities): McpServer[] {
    const { usable, skipped } = usableMcpServers(this.opts.mcpServers ?? [], caps);
    if (skipped.length) {
      const names = skipped.map((s) => `${s.name} (${"type" in s ? s.type : "stdio"})`).join(", ");
      this.dispatch({
        type: "notice",
        level: "warning",
        text: `${this.opts.agent.name} does not support these MCP servers' transports, so they were not passed: ${names}`,
      });
    }
    return usable;
  }

  private started(info: SessionInfo): void {
    this.dispatch({ type: "session_started", info });
  }

  /** Starts the agent again after a failure and continues the same session when it can. */
  async restart(): Promise<void> {
    const old = this.link;
    this.link = undefined;
    await old?.stop();
    this.terminals?.dispose();
    this.dispatch({ type: "restarted" });
    const id = this.state.info?.sessionId;
    // The transcript is still on screen: resume (no replay) is preferred over a load that repeats it.
    await this.start(id && old ? reopenMode(old.init.agentCapabilities ?? {}, id, "no-replay") : { kind: "new" });
  }

  /**
   * The one way out, whatever the reason (quit, signals, print mode's end, interrupt or timeout):
   * every pending permission and question is answered `cancelled`, a turn the agent is still working
   * on (a prompt in flight, or a question waiting) gets `session/cancel`, and once those have
   * reached the agent (or could not), the agent is stopped (EOF, SIGTERM to its whole process tree,
   * SIGKILL) with every terminal; before that, an agent that can close sessions is asked to
   * (`session/close`). A turn that only waits on background work is not cancelled: the agent
   * answered it, and a resume shows that work again. An agent still starting is stopped too.
   * Nothing conch started outlives this. Calling it again waits for the same stop.
   */
  shutdown(): Promise<void> {
    this.stopped ??= (async () => {
      this.shuttingDown = true;
      if (this.timer) clearTimeout(this.timer);
      this.starting.abort();
      const { pendingPrompts, permissions, questions } = this.state;
      this.abandonRequests();
      if (pendingPrompts.length || permissions.length || questions.length) this.cancel();
      this.permissions.cancelAll();
      this.questions.cancelAll();
      // An agent that stopped reading its stdin must not hold conch: its answers are best effort.
      if (this.link?.flush) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.link.flush(), new Promise((r) => (timer = setTimeout(r, FLUSH_MS)))]);
        clearTimeout(timer);
      }
      this.terminals?.dispose();
      const sid = this.state.info?.sessionId;
      // Told first, the agent ends and frees the session itself; a slow answer does not hold up quitting.
      if (sid && this.link?.init.agentCapabilities?.sessionCapabilities?.close && !this.link.exit) {
        await Promise.race([this.link.conn.closeSession(sid).catch(() => undefined), pause(CLOSE_WAIT_MS)]);
      }
      await this.link?.stop();
      this.opts.sink?.sync();
    })();
    return this.stopped;
  }

  /** Kills everything now, synchronously: for `process.on("exit")`. */
  killNow(): void {
    this.shuttingDown = true;
    this.terminals?.dispose();
    this.link?.killNow();
  }

  // ---- wire inputs -----------------------------------------------------------------------------

  private onUpdate(n: SessionNotification): void {
    const sid = this.state.info?.sessionId;
    // Updates for another session on the same connection are not ours (sessions start with no id yet).
    if (sid && n.sessionId && n.sessionId !== sid && (this.openMode.kind === "new" || this.left.has(n.sessionId))) return;
    this.dispatch({ type: "update", notification: n, history: this.state.replaying || undefined });
  }

  /**
   * A write the agent made through conch: what it replaced goes to the undo store, and the write,
   * by content hash, becomes an event of the turn that runs now.
   */
  private recordWrite(w: WrittenFile): void {
    const s = this.state;
    const turnId = s.pendingPrompts[s.pendingPrompts.length - 1] ?? s.currentTurnId ?? s.turns[s.turns.length - 1]?.id ?? "t0";
    const content = Buffer.from(w.content, "utf8");
    const after: FileVersion = { bytes: content.length, sha256: contentHash(content) };
    let before: FileVersion | null = null;
    let lost: string | undefined;
    if (w.replaced.kind === "file") {
      const sid = s.info?.sessionId;
      const kept = sid ? this.opts.preImages?.put(sid, w.replaced.bytes) : undefined;
      before = { bytes: w.replaced.bytes.length, sha256: kept?.sha256 ?? contentHash(w.replaced.bytes) };
      if (!kept) lost = "the session had no id yet";
      else if (!kept.kept) lost = kept.why;
    } else if (w.replaced.kind === "too_large") {
      before = { bytes: w.replaced.size };
      lost = tooLargeToKeep(w.replaced.size);
    }
    this.dispatch({ type: "file_written", turnId, path: w.path, before, after, ...(lost ? { lost } : {}) });
  }

  // ---- intents ---------------------------------------------------------------------------------

  /** Sends a prompt now if the session is idle, else queues it (never lost, sent in order). */
  send(text: string, blocks?: ContentBlock[]): void {
    if (this.state.phase === "idle" && this.state.queue.length === 0) {
      this.startPrompt(blocks ?? [{ type: "text", text }]);
      return;
    }
    this.dispatch({ type: "queue_added", id: `q${++this.queueCounter}-${this.now()}`, text, blocks });
  }

  /**
   * Stops waiting for a draining turn (the user detaches): the queue goes out at once, first
   * message first. Late updates still attach to the turn they belong to.
   */
  detach(): void {
    if (this.state.phase === "draining") this.dispatch({ type: "detached" });
  }

  /** Sends a prompt even though the previous turn is still draining, after anything already queued. */
  sendNow(text: string, blocks?: ContentBlock[]): void {
    if (this.state.phase !== "draining") return this.send(text, blocks);
    this.dispatch({ type: "queue_added", id: `q${++this.queueCounter}-${this.now()}`, text, blocks });
    this.detach();
  }

  /**
   * Sends a message into the turn that runs now (`_session/steering`), where the agent takes
   * steering; otherwise, and while nothing runs that could take it (idle, cancelling, starting), it
   * is sent like `send`. The message shows in the turn once the agent has taken it. When the agent
   * says no turn runs any more (the turn ended meanwhile) it goes out as a prompt at once, and when
   * the request fails it is queued with a notice: it is never lost.
   */
  steer(text: string, blocks?: ContentBlock[]): void {
    const { phase, pendingPrompts, currentTurnId } = this.state;
    const sid = this.state.info?.sessionId;
    const link = this.link;
    const turnId = pendingPrompts[pendingPrompts.length - 1] ?? currentTurnId;
    if (!this.state.agent?.steering || !link || !sid || !turnId || (phase !== "prompting" && phase !== "draining"))
      return this.send(text, blocks);
    const prompt = blocks ?? [{ type: "text", text }];
    link.conn.steer(sid, prompt).then(
      (result) => {
        if (result.outcome === "promptRequired") this.sendNow(text, blocks);
        else this.dispatch({ type: "steered", turnId, prompt });
      },
      (err) => {
        this.dispatch({
          type: "notice",
          level: "warning",
          text: `could not steer the message into the turn (${describeRpcError(err)}): it is queued instead`,
        });
        this.send(text, blocks);
      },
    );
  }

  editQueued(id: string, text: string): void {
    this.dispatch({ type: "queue_edited", id, text });
  }

  removeQueued(id: string): void {
    this.dispatch({ type: "queue_removed", id });
  }

  private startPrompt(prompt: ContentBlock[], queueId?: string): void {
    const link = this.link;
    const sessionId = this.state.info?.sessionId;
    if (!link || !sessionId) return;
    const turnId = `t${++this.turnCounter}`;
    this.dispatch({ type: "prompt_sent", turnId, prompt, queueId });
    link.conn.prompt(sessionId, prompt).then(
      (response) => this.dispatch({ type: "prompt_response", turnId, response }),
      async (err) => {
        // A prompt that fails because the agent died is reported once, by agent_exited.
        await Promise.race([link.exited, new Promise((r) => setTimeout(r, 300))]);
        if (link.exit) return;
        this.dispatch({ type: "prompt_response", turnId, error: `the prompt failed: ${describeRpcError(err)}` });
      },
    );
  }

  /**
   * Cancels the turn: `session/cancel`, and every pending permission is answered `cancelled`. conch's
   * own requests still waiting (a session/load, a settings change) are given up: `$/cancel_request`.
   */
  cancel(): void {
    this.abandonRequests();
    const phase = this.state.phase;
    if (phase !== "prompting" && phase !== "draining" && phase !== "cancelling") return;
    this.dispatch({ type: "cancel_requested" });
    this.permissions.cancelAll();
    this.questions.cancelAll();
    const sid = this.state.info?.sessionId;
    if (sid) this.link?.conn.cancel(sid).catch(() => undefined);
  }

  /** Answers one pending permission; the others stay pending. */
  answerPermission(key: string, optionId: string | null): void {
    this.permissions.answer(
      key,
      optionId,
      this.state.permissions.find((p) => p.key === key),
    );
  }

  /** Answers a question from the agent (`elicitation/create`). */
  answerQuestion(key: string, response: CreateElicitationResponse): void {
    this.questions.answer(key, response);
  }

  /**
   * Switches mode: `session/set_mode`, or the config option the modes come from (opencode); the mode
   * shows at once, and a refusal as an error notice.
   */
  setMode(modeId: string): Promise<void> {
    const configId = this.state.modeConfigId;
    if (configId) return this.setConfigOption(configId, modeId);
    return this.settle(
      `switch to mode ${modeId}`,
      (sid, conn, ctl) => conn.setMode(sid, modeId, ctl),
      (sid) => ({
        type: "update",
        notification: { sessionId: sid, update: { sessionUpdate: "current_mode_update", currentModeId: modeId } },
      }),
    );
  }

  /** `session/set_config_option` (a select's value id, or a boolean option's true/false); the agent's answer carries the new options. */
  setConfigOption(configId: string, value: string | boolean): Promise<void> {
    return this.settle(
      `set ${configId}`,
      (sid, conn, ctl) => conn.setConfigOption(sid, configId, value, ctl),
      (sid, resp) =>
        resp?.configOptions
          ? {
              type: "update",
              notification: { sessionId: sid, update: { sessionUpdate: "config_option_update", configOptions: resp.configOptions } },
            }
          : undefined,
    );
  }

  /**
   * Switches model: the model config option when the agent has one that offers `modelId` (the
   * protocol's way), else the unstable `session/set_model` (claude, gemini), which the spec dropped.
   */
  setModel(modelId: string): Promise<void> {
    const option = modelOption(this.state);
    if (option && (!this.state.models || selectValues(option).some((v) => v.value === modelId)))
      return this.setConfigOption(option.id, modelId);
    return this.settle(
      `switch to model ${modelId}`,
      (sid, conn, ctl) => conn.setModel(sid, modelId, ctl),
      () => ({ type: "notice", level: "info", text: `model: ${modelId}` }),
    );
  }

  /** One settings request to the agent: what it changed becomes an event, a refusal an error notice. */
  private async settle<R>(
    what: string,
    call: (sid: string, conn: AgentPort["conn"], ctl: RequestControl) => Promise<R>,
    changed: (sid: string, resp: R) => SessionEventInput | undefined,
  ): Promise<void> {
    const sid = this.state.info?.sessionId;
    const link = this.link;
    if (!sid || !link) return;
    const gaveUp = new AbortController();
    try {
      const ev = changed(sid, await this.request((ctl) => call(sid, link.conn, ctl), gaveUp));
      if (ev) this.dispatch(ev);
    } catch (err) {
      const why = gaveUp.signal.aborted ? "gave up waiting for the agent" : describeRpcError(err);
      this.dispatch({ type: "notice", level: gaveUp.signal.aborted ? "warning" : "error", text: `could not ${what}: ${why}` });
    }
  }

  // ---- sessions --------------------------------------------------------------------------------

  /** Why the session cannot be left for another right now, or undefined when it can. */
  private cannotLeave(what: string): string | undefined {
    if (!this.link || !this.state.info) return `there is no open session to ${what}`;
    const phase = this.state.phase;
    if (phase !== "idle" && phase !== "draining") return `the agent is busy: wait for the turn to end, or cancel it, then ${what}`;
    return undefined;
  }

  /**
   * A fresh conversation (`/clear`): the session is closed at the agent (`session/close`, when
   * advertised) and a new one opened in the same directory, with the same MCP servers and
   * directories. Its transcript stays in the old session's log.
   */
  async newConversation(): Promise<void> {
    const refused = this.cannotLeave("start a new session");
    if (refused) return this.dispatch({ type: "notice", level: "error", text: refused });
    const link = this.link!;
    const old = this.state.info!.sessionId;
    const closes = !!link.init.agentCapabilities?.sessionCapabilities?.close;
    this.left.add(old);
    this.dispatch({ type: "session_left", sessionId: old, closed: closes });
    if (closes) {
      try {
        await this.request((ctl) => link.conn.closeSession(old, ctl));
      } catch (err) {
        this.dispatch({
          type: "notice",
          level: "warning",
          text: `the agent did not close the old session ${old}: ${describeRpcError(err)}`,
        });
      }
    }
    this.openMode = { kind: "new" };
    await this.openSession().catch(() => undefined);
    const sid = this.state.info?.sessionId;
    if (sid && sid !== old)
      this.dispatch({ type: "notice", level: "info", text: `new session ${sid}${closes ? ` (the agent closed ${old})` : ""}` });
  }

  /**
   * `/fork`: a new session that starts from this one's history (unstable `session/fork`, where the
   * agent advertises it). The old session stays as it was, to resume later.
   */
  async fork(): Promise<void> {
    const caps = this.link?.init.agentCapabilities?.sessionCapabilities as { fork?: unknown } | undefined;
    if (this.link && !caps?.fork)
      return this.dispatch({ type: "notice", level: "error", text: `${this.opts.agent.name} cannot fork sessions` });
    const refused = this.cannotLeave("fork");
    if (refused) return this.dispatch({ type: "notice", level: "error", text: refused });
    const link = this.link!;
    const info = this.state.info!;
    const old = info.sessionId;
    this.left.add(old);
    this.dispatch({ type: "session_left", sessionId: old, closed: false });
    try {
      const resp = await this.request((ctl) => link.conn.forkSession(old, this.opts.cwd, this.setup(), ctl));
      this.openMode = { kind: "new" };
      this.started({
        ...info,
        sessionId: resp.sessionId,
        modes: resp.modes ?? info.modes,
        configOptions: resp.configOptions ?? info.configOptions,
        origin: "fork",
      });
      this.dispatch({
        type: "notice",
        level: "info",
        text: `forked: this is session ${resp.sessionId}, a copy of ${old} (which stays as it was: conch -r ${old})`,
      });
    } catch (err) {
      // Back to the session that was: nothing changed at the agent.
      this.left.delete(old);
      this.started(info);
      this.dispatch({ type: "notice", level: "error", text: `could not fork the session: ${describeRpcError(err)}` });
    }
  }

  /**
   * `/logout` (where the agent advertises `auth.logout`): the agent forgets the login, and the
   * session waits for a new one (`state.auth`), after which it goes on where it was.
   */
  async logout(): Promise<void> {
    const link = this.link;
    if (!link) return;
    if (!link.init.agentCapabilities?.auth?.logout)
      return this.dispatch({ type: "notice", level: "error", text: `${this.opts.agent.name} does not offer a logout` });
    const refused = this.cannotLeave("log out");
    if (refused) return this.dispatch({ type: "notice", level: "error", text: refused });
    try {
      await this.request((ctl) => link.conn.logout(ctl));
    } catch (err) {
      return this.dispatch({ type: "notice", level: "error", text: `could not log out: ${describeRpcError(err)}` });
    }
    const sid = this.state.info?.sessionId;
    // After the login, the same session goes on (resumed without a replay: its transcript is on screen).
    if (sid) this.openMode = reopenMode(link.init.agentCapabilities ?? {}, sid, "no-replay");
    const methods = link.init.authMethods ?? [];
    // A command line is named by its program ("node"): the agent's own name says more.
    const name = this.state.info?.agentName ?? this.opts.agent.name;
    if (!methods.length) {
      return this.dispatch({
        type: "notice",
        level: "warning",
        text: `logged out of ${name}; it offers no login method here: log in outside conch, then /restart`,
      });
    }
    this.dispatch({ type: "auth_required", methods, message: `logged out of ${name}: log in again to go on` });
  }

  // ---- undo ------------------------------------------------------------------------------------

  /** Where an undo reads and writes, or why there is none. */
  private undoIo(): UndoIo | string {
    const sessionId = this.state.info?.sessionId;
    const store = this.opts.preImages;
    if (!sessionId || !store) return "undo needs a session with an undo store";
    const { phase } = this.state;
    if (phase === "prompting" || phase === "draining" || phase === "cancelling" || phase === "replaying") {
      return "a turn is running: undo once it is over (Esc cancels it), so the agent is not writing the files meanwhile";
    }
    return { cwd: this.opts.cwd, sessionId, store };
  }

  /** What `/undo [turn]` would do (nothing is changed yet): a plan to show and confirm, or words for the person. */
  async planUndo(ref = ""): Promise<UndoAnswer> {
    const io = this.undoIo();
    if (typeof io === "string") return { kind: "message", lines: [io], error: true };
    return planUndo(this.state, ref, io);
  }

  /** Puts a confirmed plan's files back, and records what it did (so a resumed session knows). */
  async applyUndo(plan: UndoPlan): Promise<UndoOutcome | string> {
    const io = this.undoIo();
    if (typeof io === "string") return io;
    const outcome = await applyUndo(plan, io);
    const skipped = outcome.skipped.map((k) => ({ path: k.path, reason: k.reason }));
    this.dispatch({ type: "edits_undone", turnId: plan.turnId, restored: outcome.restored, deleted: outcome.deleted, skipped });
    this.opts.sink?.sync();
    return outcome;
  }

  /** Resolves with the first state (this one or a later one) for which `pred` holds. */
  until(pred: (s: SessionState) => boolean): Promise<SessionState> {
    return new Promise((resolve) => {
      const check = (s: SessionState) => {
        if (!pred(s)) return;
        unsubscribe();
        resolve(s);
      };
      const unsubscribe = this.subscribe(check);
      check(this.state);
    });
  }

  /** Resolves when the session reaches one of the phases (idle by default) or fails. */
  waitFor(phases: SessionState["phase"][] = ["idle"]): Promise<SessionState> {
    return this.until((s) => phases.includes(s.phase) || s.phase === "failed");
  }

  /** For print mode's exit message: why the agent stopped, when it did. */
  exitDescription(): string | undefined {
    const exit = this.link?.exit;
    return exit ? describeExit(exit) : undefined;
  }
}
