// Plays the agent lines of a segment by the causal plan: each line goes out when what caused it
// has happened (see causal-plan.ts), lines with different causes in order of their due times.
import { idKey, type JsonRpcId } from "./jsonrpc.js";
import { planCausal, type CausalLine, type CausalPlan, type DepRef } from "./causal-plan.js";
import type { AgentStep, ClientStep, Step } from "./steps.js";

export interface CausalPlayerOptions {
  /** Divides recorded gaps; `Infinity` for no delays. */
  speed: number;
  /** Recorded time of the segment start (lines with no dependency are timed from it). */
  startT: number;
  /** Send one agent line. */
  emit: (step: AgentStep, index: number) => void;
  /** Called once when every agent line was sent and every recorded client line arrived. */
  onComplete?: () => void;
  now?: () => number;
}

/**
 * The causal scheduler. The caller matches client messages to recorded client lines with
 * `matchCall` / `matchResponse` (a match may arrive in any order), then reports them with
 * `arrived`; the player sends agent lines as they come due.
 */
export class CausalPlayer {
  readonly plan: CausalPlan;
  readonly finished: Promise<"complete" | "stopped">;

  private readonly now: () => number;
  private readonly startWall: number;
  /** Client step → wall time it arrived. */
  private readonly arrivals = new Map<number, number>();
  /** Agent step → the time it was due (and was sent). */
  private readonly releases = new Map<number, number>();
  /** Agent lines not yet sent, in recorded order. */
  private remaining: CausalLine[];
  /** Recorded requests and notifications, per method, in recorded order, and how many were matched. */
  private readonly callsByMethod = new Map<string, number[]>();
  private readonly matchedByMethod = new Map<string, number>();
  /** Recorded answers to agent requests, per agent request id, not yet matched. */
  private readonly answersById = new Map<string, number[]>();
  private readonly clientLineCount: number;
  private timer: NodeJS.Timeout | undefined;
  private done = false;
  private resolveFinished!: (how: "complete" | "stopped") => void;

  constructor(
    private readonly steps: readonly Step[],
    private readonly options: CausalPlayerOptions,
  ) {
    if (!(options.speed > 0)) throw new Error(`speed must be > 0, got ${options.speed}`);
    this.now = options.now ?? (() => performance.now());
    this.startWall = this.now();
    this.plan = planCausal(steps);
    this.remaining = [...this.plan.lines];
    let clientLines = 0;
    steps.forEach((step, index) => {
      if (step.from !== "client") return;
      clientLines++;
      const message = step.message;
      if (message.kind === "response") pushTo(this.answersById, idKey(message.id), index);
      else pushTo(this.callsByMethod, message.method, index);
    });
    this.clientLineCount = clientLines;
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    // Lines that wait for nothing (or only for the start) are due from the beginning.
    queueMicrotask(() => this.pump());
  }

  /**
   * The recorded client line a request or notification of `method` stands for: the next
   * unmatched one of that method, whatever order methods arrive in (the 2nd `session/prompt`
   * the client sends is the recorded 2nd). Undefined when the trace has no more of them.
   */
  matchCall(method: string): { index: number; step: ClientStep } | undefined {
    const recorded = this.callsByMethod.get(method) ?? [];
    const matched = this.matchedByMethod.get(method) ?? 0;
    if (matched >= recorded.length) return undefined;
    this.matchedByMethod.set(method, matched + 1);
    return this.clientStep(recorded[matched]);
  }

  /** The recorded client answer to agent request `id` (the earliest not yet matched), if any. */
  matchResponse(id: JsonRpcId): { index: number; step: ClientStep } | undefined {
    const index = this.answersById.get(idKey(id))?.shift();
    return index === undefined ? undefined : this.clientStep(index);
  }

  /** Recorded client line `index` has arrived now. */
  arrived(index: number): void {
    if (this.done || this.arrivals.has(index)) return;
    this.arrivals.set(index, this.now());
    this.pump();
  }

  /** Stop sending; `finished` settles with "stopped" unless it already completed. */
  stop(): void {
    this.finish("stopped");
  }

  private clientStep(index: number): { index: number; step: ClientStep } {
    const step = this.steps[index];
    if (step.from !== "client") throw new Error(`step ${index} is not a client line`);
    return { index, step };
  }

  /** Send every line that is due, then sleep until the next one is. */
  private pump(): void {
    if (this.done) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (;;) {
      let next: { at: number; line: CausalLine; due: number } | undefined;
      this.remaining.forEach((line, at) => {
        const due = this.dueTime(line);
        // Strictly earlier only: among equal due times the recorded order wins.
        if (due !== undefined && (next === undefined || due < next.due)) next = { at, line, due };
      });
      if (next === undefined) break;
      const wait = next.due - this.now();
      if (wait > 0) {
        this.timer = setTimeout(() => this.pump(), wait);
        return;
      }
      this.remaining.splice(next.at, 1);
      this.releases.set(next.line.step, next.due);
      const step = this.steps[next.line.step];
      if (step.from === "agent") this.options.emit(step, next.line.step);
      if (this.done) return;
    }
    if (this.remaining.length === 0 && this.arrivals.size === this.clientLineCount) this.finish("complete");
  }

  /**
   * When `line` is due: its timing dependency's time plus the recorded gap (scaled), and never
   * before any other dependency. Undefined while a dependency has not happened.
   */
  private dueTime(line: CausalLine): number | undefined {
    let floor = Number.NEGATIVE_INFINITY;
    for (const dep of line.deps) {
      const at = this.depTime(dep);
      if (at === undefined) return undefined;
      floor = Math.max(floor, at);
    }
    const [base, baseT] =
      line.timing === undefined
        ? [this.startWall, this.options.startT]
        : [this.depTime(line.timing) ?? floor, this.steps[line.timing.step].t];
    const gap = Math.max(0, line.t - baseT) / this.options.speed;
    return Math.max(floor, base + (Number.isFinite(gap) ? gap : 0));
  }

  private depTime(dep: DepRef): number | undefined {
    return dep.kind === "client" ? this.arrivals.get(dep.step) : this.releases.get(dep.step);
  }

  private finish(how: "complete" | "stopped"): void {
    if (this.done) return;
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (how === "complete") this.options.onComplete?.();
    this.resolveFinished(how);
  }
}

function pushTo<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}
