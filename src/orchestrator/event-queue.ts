import { isDeepStrictEqual } from "node:util";
import type { SessionEvent, SessionEventInput } from "../session/events.js";
import { reduce, reduceBatch } from "../session/reduce.js";
import { CallRetirer, type RetiredCallStore } from "../session/retire-calls.js";
import { initialSessionState, seqMovedOn, type SessionState } from "../session/state.js";
import type { Clock, EventSink, SessionEvents } from "./ports.js";
import { FOLD_STEP_MS, inSteps, withLiveAgent } from "./log-fold.js";

/** Events after which the log is made durable: the turn boundaries, and what the user queued. */
const SYNC_EVENTS: ReadonlySet<SessionEvent["type"]> = new Set(["prompt_response", "settled", "agent_exited", "queue_added"]);

/** Called after every transition with the new state and the event that made it. */
export type Listener = (state: SessionState, event?: SessionEvent) => void;

/**
 * Called for each event with the session as that event left it, also inside a burst, where a
 * `Listener` sees only the burst's end. The state may be a draft the burst goes on changing: it is
 * read during the call, never kept.
 */
export type EachListener = (state: SessionState, event: SessionEvent) => void;

/** What the queue writes to and tells after each transition. */
export interface EventQueueOptions {
  /** The durable log (the recorder); none for a session that is not recorded. */
  sink?: EventSink;
  now: Clock;
  /**
   * Sees every event, live and from the log (`fromLog`: folded quietly, it happened in an earlier
   * run): the terminals keep their screens current with it.
   */
  observe: (ev: SessionEvent, fromLog?: boolean) => void;
  /** Runs after each transition (after the listeners): the turn driver decides what comes next. */
  decide: () => void;
  /**
   * Only the newest state is ever read (print mode): a transition changes the state's collections in
   * place rather than copy them, so a flood of 100,000 calls does not copy the map of calls once per
   * batch. Without it every published state is a snapshot.
   */
  newestOnly?: boolean;
}

/**
 * The serial event queue: every input becomes an event handled in order by one transition
 * (reduce, append to the log, publish, decide). It owns the session's state; it is the only
 * writer of the session log. Each state it publishes is a snapshot, frozen, that no later event
 * changes (session/draft.ts says how).
 */
export class SessionEventQueue implements SessionEvents {
  state: SessionState = Object.freeze(initialSessionState());
  private listeners = new Set<Listener>();
  private eachListeners = new Set<EachListener>();
  private readonly tellEach = (state: SessionState, ev: SessionEvent) => {
    for (const fn of this.eachListeners) fn(state, ev);
  };
  private queue: SessionEvent[] = [];
  private running = false;
  private inBurst = false;
  private burstEnd?: NodeJS.Immediate;
  private retirer?: { calls: CallRetirer; store: RetiredCallStore };

  constructor(private readonly opts: EventQueueOptions) {}

  /** Listens to every state change. Returns the unsubscribe function. */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Print mode: finished calls leave the state once nothing may ask for them again (see
   * `CallRetirer`); the calls each pass went over go to `store`, after the listeners saw them in the
   * state, and come back from it when an update names one again. Only with `newestOnly`, where no
   * one keeps an older state: false (and nothing leaves) without it.
   */
  retireCalls(store: RetiredCallStore, quietEvents?: number): boolean {
    if (!this.opts.newestOnly) return false;
    this.retirer = { calls: new CallRetirer(quietEvents), store };
    return true;
  }

  /** Listens to each live event with the state right after it (see EachListener). Returns the unsubscribe function. */
  subscribeEach(fn: EachListener): () => void {
    this.eachListeners.add(fn);
    return () => this.eachListeners.delete(fn);
  }

  /**
   * Events are handled in arrival order, even when handlers emit more. What came in one read of the
   * agent's output (a burst) is handled as one batch: one copy of the state, one write to the log,
   * one decision of the turn machine.
   */
  dispatch(input: SessionEventInput): void {
    const at = this.opts.now();
    // An update is most of a flood: built as a literal, which is cheaper than a spread of the input.
    this.queue.push(
      input.type === "update"
        ? { type: "update", at, notification: input.notification, ...(input.history !== undefined ? { history: input.history } : {}) }
        : ({ ...input, at } as SessionEvent),
    );
    // Only the agent's updates wait for the end of a burst: conch's own events (a session opened,
    // a prompt answered) must be in the state when the code that dispatched them goes on.
    if (this.running || (this.inBurst && input.type === "update")) return;
    this.drain();
  }

  /**
   * The connection is reading the agent's output: its updates wait in the queue until the reads of
   * this turn of the event loop are done (the pipe may deliver many 64 KiB reads in one go), then go
   * as one batch. Any other event dispatched meanwhile takes the waiting updates along before it, so
   * the order is the wire's.
   */
  onBurst(phase: "start" | "end"): void {
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

  /** Handles the updates a burst is holding back, now. */
  catchUp(): void {
    if (!this.running && this.queue.length) this.drain();
  }

  /** Folds events read back from the local log without logging or deciding: to show its transcript. */
  foldQuietly(events: readonly SessionEvent[]): void {
    this.state = Object.freeze(withLiveAgent(reduceBatch(this.state, events), this.state));
    for (const ev of events) this.opts.observe(ev, true);
    for (const fn of this.listeners) fn(this.state);
  }

  /**
   * `foldQuietly` a part of `budgetMs` at a time, with a turn of the event loop between parts: a
   * long log (~60 ms for 2,000 turns) would hold up the keys typed meanwhile. Each part's events
   * are observed with it: told all at the end, the 60,000 events of 2,000 turns were one more long
   * task. Events dispatched in between wait in the queue and follow the log's, as they would have
   * after a fold in one go.
   */
  async foldQuietlyInSteps(events: readonly SessionEvent[], budgetMs = FOLD_STEP_MS): Promise<void> {
    if (this.running) return this.foldQuietly(events);
    this.running = true;
    let state = this.state;
    try {
      await inSteps(events, budgetMs, (part) => {
        state = reduceBatch(state, part);
        for (const ev of part) this.opts.observe(ev, true);
      });
    } finally {
      this.running = false;
    }
    this.state = Object.freeze(withLiveAgent(state, this.state));
    for (const fn of this.listeners) fn(this.state);
    this.catchUp();
  }

  /**
   * `foldQuietlyInSteps` of a log its reader folded already, from the initial state (`folded`): that
   * state is taken as it is, without folding the log again (~130 ms for 2,000 turns), when the
   * log's first event, its `agent_ready`, leaves this session as it leaves a new one (so far it
   * holds only an `agent_ready` too, which the log's replaces). The reducer is pure, so the rest
   * of the log then folds here as it did there. Not in print mode, which changes states in place.
   */
  async foldLogQuietly(events: readonly SessionEvent[], folded?: SessionState, budgetMs = FOLD_STEP_MS): Promise<void> {
    const first = events.slice(0, 1);
    // An agent_ready adds to neither of the caches every state shares (state.ts): folding it here is only a look.
    // The states differ in how many events made them (`seq`), which `seqMovedOn` makes up for.
    const counted = (state: SessionState) => ({ ...reduceBatch(state, first), seq: 0 });
    const same =
      folded !== undefined &&
      !this.running &&
      !this.opts.newestOnly &&
      first[0]?.type === "agent_ready" &&
      isDeepStrictEqual(counted(this.state), counted(initialSessionState()));
    if (!same) return this.foldQuietlyInSteps(events, budgetMs);
    // Its events are observed a step at a time, as a fold in steps does; dispatched meanwhile, one waits and follows them.
    this.running = true;
    try {
      await inSteps(events, budgetMs, (part) => {
        for (const ev of part) this.opts.observe(ev, true);
      });
    } finally {
      this.running = false;
    }
    this.state = Object.freeze(withLiveAgent(seqMovedOn(folded, this.state.seq), this.state));
    for (const fn of this.listeners) fn(this.state);
    this.catchUp();
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

  /**
   * A batch of events through one draft: one copy of each collection the burst touches, not one
   * per event. If the reducer refuses one, the session fails with the reason, as one by one.
   */
  private transitionBatch(events: SessionEvent[]): void {
    let next: SessionState;
    this.retirer?.calls.restore(this.state, events, this.retirer.store);
    try {
      const each = this.eachListeners.size > 0 ? this.tellEach : undefined;
      next = Object.freeze(reduceBatch(this.state, events, { transient: this.opts.newestOnly === true, each }));
    } catch (err) {
      this.fail(events[events.length - 1].at, `internal error handling a burst of ${events.length} events: ${(err as Error).message}`);
      return;
    }
    this.state = next;
    const { sink } = this.opts;
    let sync = false;
    for (const ev of events) {
      sink?.append(ev);
      this.opts.observe(ev);
      sync ||= SYNC_EVENTS.has(ev.type);
    }
    if (sync) sink?.sync();
    else sink?.flush?.();
    for (const ev of events) this.publish(ev);
    this.opts.decide();
    this.retire();
  }

  private retire(): void {
    const r = this.retirer;
    if (!r) return;
    const passed = r.calls.retire(this.state, r.store);
    if (passed.length > 0) r.store.passed(passed);
  }

  private transition(ev: SessionEvent): void {
    let next: SessionState;
    this.retirer?.calls.restore(this.state, [ev], this.retirer.store);
    try {
      next = Object.freeze(this.opts.newestOnly ? reduceBatch(this.state, [ev], { transient: true }) : reduce(this.state, ev));
    } catch (err) {
      // The reducer refused an input: keep what is logged, show why, stop the turn.
      this.fail(ev.at, `internal error handling ${ev.type}: ${(err as Error).message}`);
      return;
    }
    this.state = next;
    this.tellEach(next, ev);
    const { sink } = this.opts;
    sink?.append(ev);
    this.opts.observe(ev);
    if (SYNC_EVENTS.has(ev.type)) sink?.sync();
    else sink?.flush?.();
    this.publish(ev);
    this.opts.decide();
    this.retire();
  }

  private fail(at: number, message: string): void {
    const failure: SessionEvent = { type: "failed", at, message };
    this.opts.sink?.append(failure);
    this.state = Object.freeze(reduce(this.state, failure));
    this.tellEach(this.state, failure);
    this.publish(failure);
  }

  private publish(ev: SessionEvent): void {
    for (const fn of this.listeners) fn(this.state, ev);
  }
}
