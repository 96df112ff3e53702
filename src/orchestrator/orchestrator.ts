import { PRE_IMAGE_MAX_FILE_BYTES } from "../store/pre-image-store.js";
import type { SessionEventInput } from "../session/events.js";
import { profileOf } from "../session/profiles/select-profile.js";
import type { RetiredCallStore } from "../session/retire-calls.js";
import type { SessionState } from "../session/state.js";
import { describeExit } from "./agent/agent-link.js";
import { EditHistory } from "./undo/edit-history.js";
import { SessionEventQueue, type EachListener, type Listener } from "./event-queue.js";
import type { OrchestratorOptions, ResumedLog } from "./orchestrator-options.js";
import { OwnRequests } from "./own-requests.js";
import { PermissionDesk } from "./permission-desk.js";
import type { AgentPort, TerminalService } from "./ports.js";
import { QuestionDesk } from "./question-desk.js";
import { RuleGate } from "./rules/rule-gate.js";
import { TurnCheckpoints } from "./undo/turn-checkpoints.js";
import { closeSession } from "./session-close.js";
import { SessionOpener, type OpenMode } from "./session-opener.js";
import { SessionSettings } from "./session-settings.js";
import { SessionSwitch } from "./session-switch.js";
import { TaskDesk } from "./task-desk.js";
import { TurnDriver } from "./turn-driver.js";
import { DEFAULT_TIMING, type TurnTiming } from "../session/quiet-period.js";
import { INTENT_NAMES, INTENTS, type IntentName } from "./intents.js";

export type { OrchestratorOptions } from "./orchestrator-options.js";
export type { EventSink, TerminalService } from "./ports.js";
export type { OpenMode } from "./session-opener.js";

/**
 * One per session: the intents facade the UI, print mode and the cli call. It composes the parts,
 * and each intent of `intents.ts` is its part's method of the same name (bound in the constructor):
 * the serial event queue (`event-queue.ts`: owns the state, the only writer of the session log),
 * the session opener (`session-opener.ts`: start, open, login, restart) and the way out
 * (`session-close.ts`), the turn driver (`turn-driver.ts`: prompts, the queue, steering, cancel,
 * the turn machine's decisions and its timer), the session switch (`/clear`, `/fork`, `/logout`),
 * the settings, the desks for the agent's permission requests and questions, the permission rules
 * (`/permissions`), and the edit history (`/undo`, `/redo`) with the turns' checkpoints.
 */
class OrchestratorCore {
  readonly timing: TurnTiming;
  private readonly events: SessionEventQueue;
  private readonly requests: OwnRequests;
  private readonly permissions: PermissionDesk;
  private readonly questions: QuestionDesk;
  private readonly turns: TurnDriver;
  private readonly opener: SessionOpener;
  private readonly tasks: TaskDesk;
  private readonly checkpoints?: TurnCheckpoints;
  private stopped?: Promise<void>;
  private resumed?: Promise<ResumedLog>;
  /** Print mode's: a promise while its output is behind (see `holdReadsWhile`). */
  private readGate?: () => Promise<void> | undefined;
  private readsHeld = false;

  constructor(private readonly opts: OrchestratorOptions) {
    const now = opts.now ?? Date.now;
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    const events = new SessionEventQueue({
      sink: opts.sink,
      now,
      observe: (ev, fromLog) => {
        this.opener.terminals?.observe?.(ev);
        this.tasks.observe(ev);
        // A call that ended in an earlier run was recorded then: a resume does not snapshot the workspace for each again.
        if (!fromLog) this.checkpoints?.observe(ev);
      },
      decide: () => this.turns.decide(),
      newestOnly: opts.newestStateOnly === true,
    });
    this.events = events;
    this.checkpoints = opts.checkpoints ? new TurnCheckpoints(events, opts.checkpoints) : undefined;
    this.requests = new OwnRequests(() => events.catchUp());
    const dispatch = (ev: SessionEventInput) => events.dispatch(ev);
    const rules = opts.rules ? new RuleGate(opts.rules, events, opts.cwd) : undefined;
    this.permissions = new PermissionDesk(opts.policy, events, rules, opts.interactive ?? opts.policy === "ask");
    this.questions = new QuestionDesk(opts.policy === "ask", dispatch);
    const decisions = [this.permissions, this.questions];
    const edits = new EditHistory({ events, cwd: opts.cwd, preImages: opts.preImages, sink: opts.sink, checkpoints: opts.checkpoints });
    this.opener = new SessionOpener({
      opts,
      events,
      requests: this.requests,
      decisions,
      hooks: {
        onBurst: (phase) => events.onBurst(phase),
        paceReads: opts.interactive === true,
        holdReads: () => this.holdReads(),
        onPermission: (req, key, signal) => this.permissions.ask(req, key, signal),
        onQuestion: (req, key, signal) => this.questions.ask(req, key, signal),
        onQuestionComplete: (id) => dispatch({ type: "notice", level: "info", text: `the agent says the request ${id} is complete` }),
        onNotice: (level, text) => dispatch({ type: "notice", level, text }),
        missingFileReadsAsEmpty: () => profileOf(events.state).missingFileReadsAsEmpty,
        writes: opts.preImages ? { keepUpTo: PRE_IMAGE_MAX_FILE_BYTES, written: (w) => edits.recordWrite(w) } : undefined,
      },
      history: () => this.history(),
      showLocalHistory: async () => {
        const read = await this.history();
        const log = read.whole ? await read.whole() : read;
        await events.foldLogQuietly(log.events, log.state);
        this.turns.countTurnsFrom(events.state.turns.length);
      },
      turn: { halt: () => this.turns.halt() },
    });
    const agent = this.opener;
    this.tasks = new TaskDesk({ events, agent, terminals: () => this.opener.terminals, probe: opts.processProbe });
    const cps = this.checkpoints;
    const turnPorts = { events, agent, requests: this.requests, decisions, now, timing: this.timing, readsHeld: () => this.readsHeld };
    const checkpointing = cps && { beforePrompt: cps.beforePrompt.bind(cps), beforeSettle: cps.beforeSettle.bind(cps) };
    const beforeResponse = this.tasks.watch.beforeResponse.bind(this.tasks.watch);
    this.turns = new TurnDriver({ ...turnPorts, ...checkpointing, beforeResponse }, opts.history);
    Object.assign(
      this,
      intentsOf({
        opener: this.opener,
        switcher: new SessionSwitch({ events, door: this.opener, requests: this.requests, agent: opts.agent, cwd: opts.cwd }),
        turns: this.turns,
        permissions: this.permissions,
        questions: this.questions,
        settings: new SessionSettings({ events, agent, requests: this.requests }),
        edits,
        rules: rules ?? NO_RULES,
        tasks: this.tasks,
      }),
    );
  }

  /** The log being resumed (none for a new session), read once, when the opener first needs it. */
  private history(): Promise<ResumedLog> {
    const { loadHistory, history } = this.opts;
    this.resumed ??= loadHistory
      ? loadHistory(() => this.opener.replays).then((log) => {
          this.turns.countHistory(log.events);
          return log;
        })
      : Promise.resolve({ events: history ?? [] });
    return this.resumed;
  }

  /** The session as folded so far. */
  get state(): SessionState {
    return this.events.state;
  }

  /** The agent conch talks to, while one runs. */
  get link(): AgentPort | undefined {
    return this.opener.link;
  }

  /** The session's terminals (client PTYs and display-only panes), once started. */
  get terminals(): TerminalService | undefined {
    return this.opener.terminals;
  }

  /** Adds an event to the serial queue (handled in arrival order). */
  dispatch(input: SessionEventInput): void {
    this.events.dispatch(input);
  }

  /** Listens to every state change. Returns the unsubscribe function. */
  subscribe(fn: Listener): () => void {
    return this.events.subscribe(fn);
  }

  /** Listens to each live event with the state right after it, also inside a burst (print mode's stream-json). */
  subscribeEach(fn: EachListener): () => void {
    return this.events.subscribeEach(fn);
  }

  /** Print mode: finished calls leave the state once nothing may ask for them again, kept by `store`; false when the state keeps snapshots (see `SessionEventQueue.retireCalls`). */
  retireCalls(store: RetiredCallStore, quietEvents?: number): boolean {
    return this.events.retireCalls(store, quietEvents);
  }

  /**
   * Print mode: while `gate` returns a promise (stdout over its mark, a slow reader), the agent's
   * output stays in its pipe until it resolves, and the turn's timed decisions (a quiet period's
   * end) wait with it: the agent may have said more than conch has read.
   */
  holdReadsWhile(gate: () => Promise<void> | undefined): void {
    this.readGate = gate;
  }

  private holdReads(): Promise<void> | undefined {
    const wait = this.readGate?.();
    if (!wait) return undefined;
    this.readsHeld = true;
    return wait.then(() => {
      this.readsHeld = false;
    });
  }

  /** Resolves with the first state (this one or a later one) for which `pred` holds. */
  until(pred: (s: SessionState) => boolean): Promise<SessionState> {
    return this.events.until(pred);
  }

  /** Resolves when the session reaches one of the phases (idle by default) or fails. */
  waitFor(phases: SessionState["phase"][] = ["idle"]): Promise<SessionState> {
    return this.until((s) => phases.includes(s.phase) || s.phase === "failed");
  }

  /**
   * Starts the agent and opens the session. Rejects with a user-facing error when it cannot. When
   * the agent wants a login first, resolves with `state.auth` set: call `authenticate`.
   */
  start(mode: OpenMode = { kind: "new" }): Promise<void> {
    const opened = this.opener.start(mode);
    // The workspace's checkpoints get ready while the agent starts, not on the first prompt. Their
    // first `git` starts a task later than the agent: each spawn is a long task on a busy machine,
    // and a key typed at startup is read between the two instead of waiting for both (one
    // setImmediate from a task of the poll phase would still run before the next read).
    const checkpoints = this.opts.checkpoints;
    if (checkpoints) setImmediate(() => setImmediate(() => void (this.stopped ? undefined : checkpoints.warm())));
    // So does the log being resumed: the opener needs it the moment the agent answers, and reading
    // and folding a long one took ~0.4 s that the main thread spent idle while the agent started.
    // A failure to read it is the opener's to report.
    if (this.opts.loadHistory) this.history().catch(() => {});
    return opened;
  }

  /** The one way out (`session-close.ts`): cancels what waits, closes the session, stops the agent and every terminal. Calling it again waits for the same stop. */
  shutdown(): Promise<void> {
    this.tasks.watch.clear();
    // The turn's last checkpoint is logged before the log closes (a print run exits at once).
    this.stopped ??= (this.checkpoints?.recorded(2000) ?? Promise.resolve()).then(() =>
      closeSession({
        events: this.events,
        opener: this.opener,
        turn: this.turns,
        requests: this.requests,
        decisions: [this.permissions, this.questions],
        sink: this.opts.sink,
      }),
    );
    return this.stopped;
  }

  /** Kills everything now, synchronously: for `process.on("exit")`. */
  killNow(): void {
    this.opener.killNow();
  }

  /** For print mode's exit message: why the agent stopped, when it did. */
  exitDescription(): string | undefined {
    const exit = this.link?.exit;
    return exit ? describeExit(exit) : undefined;
  }
}

/** The parts that carry out the intents, by the names `INTENTS` gives them. */
interface IntentParts {
  opener: SessionOpener;
  switcher: SessionSwitch;
  turns: TurnDriver;
  permissions: PermissionDesk;
  questions: QuestionDesk;
  settings: SessionSettings;
  edits: EditHistory;
  rules: Pick<RuleGate, "permissionRules" | "removePermissionRule">;
  tasks: TaskDesk;
}

/** The rules of a session that has none (its options gave no rule book): none in force, none to remove. */
const NO_RULES: IntentParts["rules"] = {
  permissionRules: () => [],
  removePermissionRule: () => "this session has no rules",
};

type PartOf<K extends IntentName> = IntentParts[(typeof INTENTS)[K]];

/** The session's intents, each as its part declares it (`intents.ts` says which part). */
export type Intents = { [K in IntentName]: PartOf<K>[K & keyof PartOf<K>] };

/** An intent whose part has no method of its name: a compile error below names it. */
type Unbound = { [K in IntentName]: K extends keyof PartOf<K> ? never : K }[IntentName];
const everyIntentBound: [Unbound] extends [never] ? true : Unbound = true;
void everyIntentBound;

/** Each intent, bound to its part. */
function intentsOf(parts: IntentParts): Intents {
  const bound = (name: IntentName) => {
    const part = parts[INTENTS[name]] as unknown as Record<IntentName, (...args: unknown[]) => unknown>;
    return [name, part[name].bind(part)] as const;
  };
  return Object.fromEntries(INTENT_NAMES.map(bound)) as unknown as Intents;
}

/** The orchestrator: its core (state, start, shutdown) and every intent of `intents.ts`. */
export type Orchestrator = OrchestratorCore & Intents;
export const Orchestrator = OrchestratorCore as new (opts: OrchestratorOptions) => Orchestrator;
