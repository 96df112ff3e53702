import type { ContentBlock } from "@agentclientprotocol/sdk";
import { describeRpcError } from "../acp/agent-connection.js";
import type { SessionEvent } from "../session/events.js";
import type { AgentRequests, AgentSlot, Clock, PendingDecisions, SessionEvents } from "./ports.js";
import type { TurnTiming } from "../session/quiet-period.js";
import { nextAction, sendsAtOnce } from "./turn-machine.js";

/*
 * "Settle" named three different things in orchestrator/ and session/; each now has its own name:
 * - The end of a drain: nothing the turn opened is still waited on, and the turn is over. Only this
 *   is "settle": the turn machine's `settle` decision, which `decide` below carries out
 *   (`endDrain`) as the `settled` event. That event keeps its name, as the session log is a
 *   persisted format; session/events.ts says what it means.
 * - A request answered: conch's own settings request to the agent is `changeSetting`
 *   (session-settings.ts); a question from the agent, answered by the person, by the cancel sweep
 *   or withdrawn by the agent, is `QuestionDesk.respond`; in session/, a poll that saw a command
 *   exit resolves its "unknown after resume" status (`resolveFromPoll`).
 * - The quiet period: the wait, with no open work left, for an agent that gives no word of its own
 *   that its turn is over (`quietPeriod` and the `TurnTiming` knobs in turn-machine.ts). It
 *   passes, then the drain ends.
 * The UI's "settled items" (ui/transcript/settled-items.ts) are yet another thing: transcript items
 * that can no longer change and go to the scrollback; a turn may still run while they print.
 */

/** What the turn driver needs: the queue, the agent, its own requests, the pending decisions, a clock. */
export interface TurnDriverPorts {
  events: SessionEvents;
  agent: AgentSlot;
  requests: AgentRequests;
  /** The permission and question desks: a cancel answers all they hold. */
  decisions: PendingDecisions[];
  now: Clock;
  timing: TurnTiming;
  /** A turn is about to answer (not cancelled): what its open calls became is asked before the answer is folded. */
  beforeResponse?(turnId: string): void;
  /** Runs before a prompt goes out, once its turn is known (a checkpoint of the workspace). */
  beforePrompt?: (turnId: string) => Promise<void>;
  /** Runs before a turn is over (its last checkpoint): what the person does once it is idle is theirs. */
  beforeSettle?: () => Promise<void>;
  /** Reading the agent waits for a slow consumer (print mode): a timed decision waits too. */
  readsHeld?: () => boolean;
}

/**
 * Drives turns: sends prompts (now, or from the queue when the turn machine says so), steers
 * messages into a running turn, cancels, and turns the turn machine's decisions after every
 * transition into events and its one timer.
 */
export class TurnDriver {
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private turnCounter = 0;
  private queueCounter = 0;
  private halted = false;
  private settling = false;

  /** `history` is the log being resumed: turn ids go on from its, as a run that said "t1" again would fold wrongly from disk. */
  constructor(
    private readonly ports: TurnDriverPorts,
    history: readonly SessionEvent[] = [],
  ) {
    this.countHistory(history);
  }

  /** Turn ids go on after those of the log being resumed. */
  countHistory(history: readonly SessionEvent[]): void {
    for (const ev of history)
      if (ev.type === "prompt_sent") this.turnCounter = Math.max(this.turnCounter, Number(/^t(\d+)$/.exec(ev.turnId)?.[1] ?? 0));
  }

  /** Turn ids go on after the turns of a transcript shown from the local log. */
  countTurnsFrom(turns: number): void {
    this.turnCounter = Math.max(this.turnCounter, turns);
  }

  /** Turns the turn machine's decision into events and the timer; called after every transition. */
  decide(): void {
    const { events, agent, now, timing } = this.ports;
    if (this.halted || !agent.link) return;
    const action = nextAction(events.state, now(), timing);
    switch (action.type) {
      case "send_queued":
        this.startPrompt(action.blocks ?? [{ type: "text", text: action.text }], action.id);
        return;
      case "settle":
        this.endDrain();
        return;
      case "stall":
        events.dispatch({ type: "work_stalled", kind: action.kind, id: action.id });
        return;
      case "wait":
        this.schedule(action.until ?? now() + timing.quietMs);
        return;
      case "none":
        return;
    }
  }

  /** Makes no more decisions and stops the timer: conch is quitting. */
  halt(): void {
    this.halted = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Sends a prompt now if the session is idle, else queues it (never lost, sent in order). */
  send(text: string, blocks?: ContentBlock[]): void {
    if (sendsAtOnce(this.ports.events.state)) this.startPrompt(blocks ?? [{ type: "text", text }]);
    else this.enqueue(text, blocks);
  }

  /** Sends a prompt even though the previous turn is still draining, after anything already queued. */
  sendNow(text: string, blocks?: ContentBlock[]): void {
    if (this.ports.events.state.phase !== "draining") return this.send(text, blocks);
    this.enqueue(text, blocks);
    this.detach();
  }

  /**
   * Stops waiting for a draining turn (Ctrl-D): the next queued message goes out now, as its own
   * turn, and the rest follow it as usual; the drained turn's late updates still attach to it.
   */
  detach(): void {
    if (this.ports.events.state.phase === "draining") this.ports.events.dispatch({ type: "detached" });
  }

  /**
   * Sends a message into the running turn (`_session/steering`) where the agent takes steering, else
   * like `send`. When the agent says no turn runs any more it goes out as a prompt at once, and when
   * the request fails it is queued with a notice: it is never lost.
   */
  steer(text: string, blocks?: ContentBlock[]): void {
    const { events, agent } = this.ports;
    const { phase, pendingPrompts, currentTurnId, info } = events.state;
    const sid = info?.sessionId;
    const link = agent.link;
    const turnId = pendingPrompts[pendingPrompts.length - 1] ?? currentTurnId;
    if (!events.state.agent?.steering || !link || !sid || !turnId || (phase !== "prompting" && phase !== "draining"))
      return this.send(text, blocks);
    const prompt = blocks ?? [{ type: "text", text }];
    link.conn.steer(sid, prompt).then(
      (result) => {
        if (result.outcome === "promptRequired") this.sendNow(text, blocks);
        else events.dispatch({ type: "steered", turnId, prompt });
      },
      (err) => {
        events.dispatch({
          type: "notice",
          level: "warning",
          text: `could not steer the message into the turn (${describeRpcError(err)}): it is queued instead`,
        });
        this.send(text, blocks);
      },
    );
  }

  /** Changes a queued message's text. */
  editQueued(id: string, text: string): void {
    this.ports.events.dispatch({ type: "queue_edited", id, text });
  }

  /** Takes a message out of the queue. */
  removeQueued(id: string): void {
    this.ports.events.dispatch({ type: "queue_removed", id });
  }

  /**
   * Cancels the turn: `session/cancel`, and every pending permission and question is answered
   * `cancelled`. conch's own requests still waiting (a session/load, a settings change) are given up.
   */
  cancel(): void {
    const { events, agent, requests, decisions } = this.ports;
    requests.abandonAll();
    const phase = events.state.phase;
    if (phase !== "prompting" && phase !== "draining" && phase !== "cancelling") return;
    events.dispatch({ type: "cancel_requested" });
    for (const desk of decisions) desk.cancelAll();
    const sid = events.state.info?.sessionId;
    if (sid) agent.link?.conn.cancel(sid).catch(() => undefined);
  }

  private enqueue(text: string, blocks: ContentBlock[] | undefined): void {
    this.ports.events.dispatch({ type: "queue_added", id: `q${++this.queueCounter}-${this.ports.now()}`, text, blocks });
  }

  private startPrompt(prompt: ContentBlock[], queueId?: string): void {
    const { events, agent } = this.ports;
    const link = agent.link;
    const sessionId = events.state.info?.sessionId;
    if (!link || !sessionId) return;
    const turnId = `t${++this.turnCounter}`;
    events.dispatch({ type: "prompt_sent", turnId, prompt, queueId });
    const before = this.ports.beforePrompt?.(turnId);
    if (!before) return this.sendPrompt(link, sessionId, turnId, prompt);
    void before.then(() => {
      // Cancelled (or the agent gone) while the workspace was recorded: the prompt never goes out.
      if (events.state.phase === "cancelling" || agent.link !== link) {
        events.dispatch({ type: "prompt_response", turnId, response: { stopReason: "cancelled" } });
        return;
      }
      this.sendPrompt(link, sessionId, turnId, prompt);
    });
  }

  private sendPrompt(link: NonNullable<AgentSlot["link"]>, sessionId: string, turnId: string, prompt: ContentBlock[]): void {
    const { events } = this.ports;
    link.conn.prompt(sessionId, prompt).then(
      (response) => {
        if (response.stopReason !== "cancelled") this.ports.beforeResponse?.(turnId);
        events.dispatch({ type: "prompt_response", turnId, response });
      },
      async (err) => {
        // A prompt that fails because the agent died is reported once, by agent_exited.
        await Promise.race([link.exited, new Promise((r) => setTimeout(r, 300))]);
        if (link.exit) return;
        events.dispatch({ type: "prompt_response", turnId, error: `the prompt failed: ${describeRpcError(err)}` });
      },
    );
  }

  /** Nothing the turn opened is still waited on: the turn ends (after its last checkpoint, if any). */
  private endDrain(): void {
    const { events, now, timing } = this.ports;
    if (this.settling) return;
    const before = this.ports.beforeSettle?.();
    if (!before) return events.dispatch({ type: "settled" });
    this.settling = true;
    void before.then(() => {
      this.settling = false;
      // Something may have come in meanwhile (a late update): the turn machine decides again.
      if (!this.halted && nextAction(events.state, now(), timing).type === "settle") events.dispatch({ type: "settled" });
      else this.decide();
    });
  }

  /** The one timer: wakes the turn machine at the earliest time it asked for. */
  private schedule(at: number): void {
    if (this.timer && at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        // What the agent said while reads waited is still in its pipe: the quiet so far is not the agent's.
        if (this.ports.readsHeld?.()) this.schedule(this.ports.now() + this.ports.timing.quietMs);
        else this.decide();
      },
      Math.max(0, at - this.ports.now()) + 5,
    );
  }
}
