import type { ConchError } from "../errors/conch-error.js";
import type { ContentBlock, CreateElicitationResponse } from "@agentclientprotocol/sdk";
import { PRE_IMAGE_MAX_FILE_BYTES } from "../store/pre-image-store.js";
import type { SessionEventInput } from "../session/events.js";
import { profileOf } from "../session/profiles/select-profile.js";
import type { SessionState } from "../session/state.js";
import { describeExit } from "./agent/agent-link.js";
import { EditHistory } from "./undo/edit-history.js";
import { SessionEventQueue, type Listener } from "./event-queue.js";
import type { OrchestratorOptions } from "./orchestrator-options.js";
import { OwnRequests } from "./own-requests.js";
import { PermissionDesk } from "./permission-desk.js";
import type { AgentPort, TerminalService } from "./ports.js";
import { QuestionDesk } from "./question-desk.js";
import { RuleGate } from "./rules/rule-gate.js";
import { TurnCheckpoints } from "./undo/turn-checkpoints.js";
import type { PermissionRule } from "./rules/permission-rules.js";
import { closeSession } from "./session-close.js";
import { SessionOpener, type OpenMode } from "./session-opener.js";
import { SessionSettings } from "./session-settings.js";
import { SessionSwitch } from "./session-switch.js";
import type { CommandStart, Task } from "../session/tasks.js";
import { TaskDesk } from "./task-desk.js";
import { TurnDriver } from "./turn-driver.js";
import { DEFAULT_TIMING, type TurnTiming } from "./turn-machine.js";
import type { UndoAnswer, UndoOutcome, UndoPlan } from "./undo/turn-undo.js";

export type { OrchestratorOptions } from "./orchestrator-options.js";
export type { EventSink, TerminalService } from "./ports.js";
export type { OpenMode } from "./session-opener.js";

/**
 * One per session: the intents facade the UI, print mode and the cli call. It composes the parts
 * and delegates: the serial event queue (`event-queue.ts`: owns the state, the only writer of the
 * session log), the session opener (`session-opener.ts`: start, open, login, restart) and the way
 * out (`session-close.ts`), the turn driver (`turn-driver.ts`: prompts, the queue, steering,
 * cancel, the turn machine's decisions and its timer), the session switch (`/clear`, `/fork`,
 * `/logout`), the settings, the desks for the agent's permission requests and questions, and the
 * edit history (`/undo`).
 */
export class Orchestrator {
  readonly timing: TurnTiming;
  private readonly events: SessionEventQueue;
  private readonly requests: OwnRequests;
  private readonly permissions: PermissionDesk;
  private readonly questions: QuestionDesk;
  private readonly turns: TurnDriver;
  private readonly opener: SessionOpener;
  private readonly switcher: SessionSwitch;
  private readonly settings: SessionSettings;
  private readonly edits: EditHistory;
  private readonly tasks: TaskDesk;
  private readonly rules?: RuleGate;
  private readonly checkpoints?: TurnCheckpoints;
  private stopped?: Promise<void>;

  constructor(private readonly opts: OrchestratorOptions) {
    const now = opts.now ?? Date.now;
    this.timing = { ...DEFAULT_TIMING, ...opts.timing };
    const events = new SessionEventQueue({
      sink: opts.sink,
      now,
      observe: (ev) => {
        this.opener.terminals?.observe?.(ev);
        this.tasks.observe(ev);
        this.checkpoints?.observe(ev);
      },
      decide: () => this.turns.decide(),
    });
    this.events = events;
    this.checkpoints = opts.checkpoints ? new TurnCheckpoints(events, opts.checkpoints) : undefined;
    this.requests = new OwnRequests(() => events.catchUp());
    const dispatch = (ev: SessionEventInput) => events.dispatch(ev);
    this.rules = opts.rules ? new RuleGate(opts.rules, events, opts.cwd) : undefined;
    this.permissions = new PermissionDesk(opts.policy, dispatch, this.rules, opts.interactive ?? opts.policy === "ask");
    this.questions = new QuestionDesk(opts.policy === "ask", dispatch);
    const decisions = [this.permissions, this.questions];
    this.edits = new EditHistory({ events, cwd: opts.cwd, preImages: opts.preImages, sink: opts.sink, checkpoints: opts.checkpoints });
    this.opener = new SessionOpener({
      opts,
      events,
      requests: this.requests,
      decisions,
      hooks: {
        onBurst: (phase) => events.onBurst(phase),
        onPermission: (req, key, signal) => this.permissions.ask(req, key, signal),
        onQuestion: (req, key, signal) => this.questions.ask(req, key, signal),
        onQuestionComplete: (id) => dispatch({ type: "notice", level: "info", text: `the agent says the request ${id} is complete` }),
        onNotice: (level, text) => dispatch({ type: "notice", level, text }),
        missingFileReadsAsEmpty: () => profileOf(events.state).missingFileReadsAsEmpty,
        writes: opts.preImages ? { keepUpTo: PRE_IMAGE_MAX_FILE_BYTES, written: (w) => this.edits.recordWrite(w) } : undefined,
      },
      showLocalHistory: () => {
        events.foldQuietly(opts.history ?? []);
        this.turns.countTurnsFrom(events.state.turns.length);
      },
      turn: { halt: () => this.turns.halt() },
    });
    const agent = this.opener;
    this.tasks = new TaskDesk({ events, agent, terminals: () => this.opener.terminals, probe: opts.processProbe });
    const cps = this.checkpoints;
    const turnPorts = { events, agent, requests: this.requests, decisions, now, timing: this.timing };
    const checkpointing = cps && { beforePrompt: cps.beforePrompt.bind(cps), beforeSettle: cps.beforeSettle.bind(cps) };
    const beforeResponse = this.tasks.watch.beforeResponse.bind(this.tasks.watch);
    this.turns = new TurnDriver({ ...turnPorts, ...checkpointing, beforeResponse }, opts.history);
    this.switcher = new SessionSwitch({ events, door: this.opener, requests: this.requests, agent: opts.agent, cwd: opts.cwd });
    this.settings = new SessionSettings({ events, agent, requests: this.requests });
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

  /** Resolves with the first state (this one or a later one) for which `pred` holds. */
  until(pred: (s: SessionState) => boolean): Promise<SessionState> {
    return this.events.until(pred);
  }

  /** Resolves when the session reaches one of the phases (idle by default) or fails. */
  waitFor(phases: SessionState["phase"][] = ["idle"]): Promise<SessionState> {
    return this.until((s) => phases.includes(s.phase) || s.phase === "failed");
  }

  // ---- the session at the agent: session-opener.ts, session-switch.ts --------------------------

  /**
   * Starts the agent and opens the session. Rejects with a user-facing error when it cannot. When
   * the agent wants a login first, resolves with `state.auth` set: call `authenticate`.
   */
  start(mode: OpenMode = { kind: "new" }): Promise<void> {
    return this.opener.start(mode);
  }

  /** Logs in with one of the agent's auth methods, then opens the session. */
  authenticate(methodId: string): Promise<void> {
    return this.opener.authenticate(methodId);
  }

  /** Starts the agent again after a failure and continues the same session when it can. */
  restart(): Promise<void> {
    return this.opener.restart();
  }

  /** The work in the user's hands (task-desk.ts): the tasks view's list, a stop, the user's own `!cmd`. */
  readonly listTasks = (): Promise<Task[]> => this.tasks.listTasks();
  readonly stopTask = (taskId: string): Promise<string | undefined> => this.tasks.stopTask(taskId);
  readonly runCommand = (line: string): Promise<CommandStart> => this.tasks.runCommand(line);

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

  /** `/clear`: closes this session at the agent and opens a new one in the same directory. */
  newConversation(): Promise<void> {
    return this.switcher.newConversation();
  }

  /** `/fork`: a new session that starts from this one's history, where the agent can fork. */
  fork(): Promise<void> {
    return this.switcher.fork();
  }

  /** `/logout`: the agent forgets the login; the session waits for a new one. */
  logout(): Promise<void> {
    return this.switcher.logout();
  }

  /** For print mode's exit message: why the agent stopped, when it did. */
  exitDescription(): string | undefined {
    const exit = this.link?.exit;
    return exit ? describeExit(exit) : undefined;
  }

  // ---- turns: turn-driver.ts -------------------------------------------------------------------

  /** Sends a prompt now if the session is idle, else queues it (never lost, sent in order). */
  send(text: string, blocks?: ContentBlock[]): void {
    this.turns.send(text, blocks);
  }

  /** Sends a prompt even though the previous turn is still draining, after anything already queued. */
  sendNow(text: string, blocks?: ContentBlock[]): void {
    this.turns.sendNow(text, blocks);
  }

  /** Sends a message into the running turn where the agent takes steering; else like `send`. */
  steer(text: string, blocks?: ContentBlock[]): void {
    this.turns.steer(text, blocks);
  }

  /** Stops waiting for a draining turn: the queued messages go out now, in order. */
  detach(): void {
    this.turns.detach();
  }

  /** Changes a queued message's text. */
  editQueued(id: string, text: string): void {
    this.turns.editQueued(id, text);
  }

  /** Takes a message out of the queue. */
  removeQueued(id: string): void {
    this.turns.removeQueued(id);
  }

  /** Cancels the turn (`session/cancel`); pending permissions and questions are answered `cancelled`. */
  cancel(): void {
    this.turns.cancel();
  }

  // ---- what the agent asked: permission-desk.ts, question-desk.ts -----------------------------

  /** Answers one pending permission (`via`: from another terminal); the others stay pending. */
  answerPermission(key: string, optionId: string | null, via?: "attached"): void {
    this.permissions.answer(
      key,
      optionId,
      this.state.permissions.find((p) => p.key === key),
      via,
    );
  }

  /** Answers a question from the agent (`elicitation/create`). */
  answerQuestion(key: string, response: CreateElicitationResponse): void {
    this.questions.answer(key, response);
  }

  /** `/permissions`: every rule in force, deny first, with where it is written. */
  permissionRules(): { rule: PermissionRule; where: string }[] {
    return this.rules?.listing() ?? [];
  }

  /** Removes a remembered rule; a string says why it cannot be (a config file's rule is edited there). */
  removePermissionRule(rule: PermissionRule): string | undefined {
    return this.rules ? this.rules.book.remove(rule) : "this session has no rules";
  }

  // ---- settings: session-settings.ts -----------------------------------------------------------

  /** Switches mode; a refusal shows as an error notice. */
  setMode(modeId: string): Promise<ConchError | undefined> {
    return this.settings.setMode(modeId);
  }

  /** A select option's value id, or a boolean option's true/false. */
  setConfigOption(configId: string, value: string | boolean): Promise<ConchError | undefined> {
    return this.settings.setConfigOption(configId, value);
  }

  /** Switches model: the model config option where there is one, else `session/set_model`. */
  setModel(modelId: string): Promise<ConchError | undefined> {
    return this.settings.setModel(modelId);
  }

  // ---- undo: edit-history.ts -------------------------------------------------------------------

  /** What `/undo [turn]` would do (nothing is changed yet): a plan to show and confirm, or words for the person. */
  planUndo(ref = ""): Promise<UndoAnswer> {
    return this.edits.planUndo(ref);
  }

  /** Puts a confirmed plan's files back, and records what it did (so a resumed session knows). */
  applyUndo(plan: UndoPlan): Promise<UndoOutcome | string> {
    return this.edits.applyUndo(plan);
  }

  /** What `/redo [turn]` would apply again after an undo (from checkpoints): a plan to confirm, or words. */
  planRedo(ref = ""): Promise<UndoAnswer> {
    return this.edits.planRedo(ref);
  }
}
