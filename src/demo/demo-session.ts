import { randomUUID } from "node:crypto";
import type { AgentContext, ContentBlock, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import type { BackgroundWork } from "@agentclientprotocol/sdk/experimental/v2";

/** ACP v2's `state_update` (draft), as the demo sends it on a v1 connection. */
interface DemoStateUpdate {
  sessionUpdate: "state_update";
  state: "running" | "idle";
  stopReason?: StopReason | null;
  background: BackgroundWork[];
}
import { appendToHistory } from "./session-history.js";
import { DEFAULT_MODE, DEFAULT_MODEL } from "./session-options.js";
import type { SessionStore, StoredSession } from "./session-store.js";

/** Work that runs on after a turn has answered; it must stop when `signal` aborts. */
export type BackgroundJob = (signal: AbortSignal) => Promise<void>;

/** A registered background job, not started yet. */
export interface BackgroundHandle {
  start(): void;
  cancel(): void;
}

/**
 * One live demo session: its saved record, the client it talks to, the turn in
 * progress and the background jobs still running. Every update the session
 * sends goes through `send`, which is what makes `session/load` replay work.
 */
export class DemoSession {
  private client: AgentContext;
  private turnQueue: Promise<unknown> = Promise.resolve();
  private currentTurn: AbortController | undefined;
  /** Messages steered into the running turn (`_session/steering`) that it has not read yet. */
  private steered: ContentBlock[][] = [];
  private readonly backgroundJobs = new Map<string, AbortController>();
  /** Jobs a previous process started that this one carries on (after a load or resume). */
  private readonly adoptedJobs = new Set<string>();
  /** Report running/idle as `state_update` (see DemoConfig.stateUpdates). */
  stateUpdates = false;

  constructor(
    readonly record: StoredSession,
    client: AgentContext,
    private readonly store: SessionStore,
  ) {
    this.client = client;
  }

  /** Starts a fresh, empty session. */
  static create(cwd: string, client: AgentContext, store: SessionStore): DemoSession {
    const now = new Date().toISOString();
    const record: StoredSession = {
      version: 1,
      sessionId: `demo-${randomUUID()}`,
      cwd,
      title: null,
      createdAt: now,
      updatedAt: now,
      modeId: DEFAULT_MODE,
      model: DEFAULT_MODEL,
      allowAlwaysEdits: false,
      usedTokens: 0,
      history: [],
    };
    return new DemoSession(record, client, store);
  }

  get id(): string {
    return this.record.sessionId;
  }

  get cwd(): string {
    return this.record.cwd;
  }

  /** The connection to call the client on (fs, terminals, permissions). */
  get connection(): AgentContext {
    return this.client;
  }

  /** Points the session at the connection and folder of the latest load, resume or prompt. */
  attach(client: AgentContext, cwd?: string): void {
    this.client = client;
    if (cwd) this.record.cwd = cwd;
  }

  /** Records and sends one update. */
  send(update: SessionUpdate): Promise<void> {
    this.recordOnly(update);
    return this.client.notify("session/update", { sessionId: this.id, update });
  }

  /** Sends an update without adding it to the transcript: replays send what is already there. */
  sendUnrecorded(update: SessionUpdate): Promise<void> {
    return this.client.notify("session/update", { sessionId: this.id, update });
  }

  /**
   * The agent's foreground state and the work it runs in the background, as ACP v2's draft
   * `state_update`. `finishing` is a job whose end is being reported now: no longer listed.
   */
  async reportState(state: "running" | "idle", opts: { stopReason?: StopReason; finishing?: string } = {}): Promise<void> {
    if (!this.stateUpdates) return;
    const background: BackgroundWork[] = [...this.backgroundJobs.keys(), ...this.adoptedJobs]
      .filter((id) => id !== opts.finishing)
      .map((toolCallId) => ({ type: "tool_call", toolCallId }));
    const update: DemoStateUpdate = {
      sessionUpdate: "state_update",
      state,
      background,
      ...(state === "idle" ? { stopReason: opts.stopReason ?? null } : {}),
    };
    // A v2 update on a v1 connection: conch reads it; other v1 clients show or skip an unknown kind.
    await this.client.notify("session/update", { sessionId: this.id, update: update as unknown as SessionUpdate });
  }

  /** Carries on a job a previous process started; `release` when it ends. */
  adoptBackground(toolCallId: string): void {
    this.adoptedJobs.add(toolCallId);
  }

  releaseBackground(toolCallId: string): void {
    this.adoptedJobs.delete(toolCallId);
  }

  /** Records a prompt the way real agents replay it: one `user_message_chunk` per content block. */
  recordPrompt(prompt: readonly ContentBlock[], titleText: string): void {
    for (const block of prompt) this.recordOnly({ sessionUpdate: "user_message_chunk", content: block });
    if (this.record.title === null && titleText.trim() !== "") this.record.title = shortTitle(titleText);
  }

  private recordOnly(update: SessionUpdate): void {
    appendToHistory(this.record.history, update);
    this.record.updatedAt = new Date().toISOString();
  }

  /**
   * Runs turns one at a time: a prompt sent while another is still pending
   * waits for it, so two scenarios never interleave their chunks.
   */
  runExclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turnQueue.then(work, work);
    this.turnQueue = run.catch(() => undefined);
    return run;
  }

  /** Opens a turn: the returned signal aborts on `session/cancel` or when the prompt request is cancelled. */
  beginTurn(requestSignal: AbortSignal): AbortController {
    const controller = new AbortController();
    if (requestSignal.aborted) controller.abort();
    else requestSignal.addEventListener("abort", () => controller.abort(), { once: true });
    this.currentTurn = controller;
    return controller;
  }

  /** Closes the turn opened by `beginTurn`. */
  endTurn(controller: AbortController): void {
    if (this.currentTurn !== controller) return;
    this.currentTurn = undefined;
    this.steered = [];
  }

  /**
   * `_session/steering`: the message joins the turn that runs now, which reads it with
   * `takeSteered`; false when no turn runs. It is kept in the history like a prompt, so a load
   * replays it.
   */
  steer(prompt: ContentBlock[]): boolean {
    if (!this.currentTurn || this.currentTurn.signal.aborted) return false;
    this.steered.push(prompt);
    this.recordPrompt(prompt, "");
    return true;
  }

  /** The messages steered into the running turn since the last call. */
  takeSteered(): ContentBlock[][] {
    return this.steered.splice(0);
  }

  /**
   * Registers work that outlives its turn, keyed by the tool call that shows
   * it, and returns the handle that starts it. Registering first means a
   * `session/cancel` that arrives before the start still reaches the job.
   * The session is saved when the job ends, so its completion survives a restart.
   */
  prepareBackground(toolCallId: string, job: BackgroundJob): BackgroundHandle {
    const controller = new AbortController();
    this.backgroundJobs.set(toolCallId, controller);
    const start = (): void => {
      void job(controller.signal)
        .catch((error: unknown) =>
          // A failed background job must not take the agent down; the tool call says what happened.
          this.send({
            sessionUpdate: "tool_call_update",
            toolCallId,
            status: "failed",
            content: [{ type: "content", content: { type: "text", text: `background job failed: ${String(error)}` } }],
          }).catch(() => undefined),
        )
        .finally(() => {
          this.backgroundJobs.delete(toolCallId);
          if (!this.currentTurn) void this.reportState("idle").catch(() => undefined);
          void this.save().catch(() => undefined);
        });
    };
    return { start, cancel: () => controller.abort() };
  }

  /** Whether this process is still running the background job of `toolCallId`. */
  isRunningInBackground(toolCallId: string): boolean {
    return this.backgroundJobs.has(toolCallId);
  }

  /** Stops the turn in progress only. */
  cancelTurn(): void {
    this.currentTurn?.abort();
  }

  /** `session/cancel`: stops the turn in progress and every background job of the session. */
  cancel(): void {
    this.currentTurn?.abort();
    for (const job of this.backgroundJobs.values()) job.abort();
  }

  /** Saves the session record. */
  save(): Promise<void> {
    return this.store.save(this.record);
  }

  /** Saves the session record before returning, for when the process is about to exit. */
  saveSync(): void {
    this.store.saveSync(this.record);
  }
}

function shortTitle(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine;
}
