// The dependencies of a causal replay: for every recorded agent line, which earlier lines
// (client lines that must have arrived, agent lines that must have been sent) caused it.
// Pure: computed from the recorded steps alone, before the replay starts.
import { idKey, isJsonObject, type JsonRpcId } from "./jsonrpc.js";
import type { AgentStep, Step } from "./steps.js";

/** A line another line waits for, by its index in the step list. */
export interface DepRef {
  /** `client`: a client line that must have arrived; `agent`: an agent line that must have been sent. */
  kind: "client" | "agent";
  step: number;
}

/**
 * Why a line waits for what it waits for:
 * - `response`: the answer to a client request (waits for that request);
 * - `turn`: an update or agent request inside the turn of a pending client request;
 * - `block`: part of an agent-initiated block, sent while no request is pending;
 * - `no-turn`: before any prompt was answered and with nothing pending (follows the previous agent line).
 */
type CausalReason = "response" | "turn" | "block" | "no-turn";

/** The plan for one agent line. */
export interface CausalLine {
  /** Index of the agent line in the step list. */
  step: number;
  t: number;
  reason: CausalReason;
  /** Every line that must have happened first. Empty: only the segment start. */
  deps: DepRef[];
  /**
   * The dependency the recorded gap is measured from: the latest of `deps` in the recording
   * (undefined: the segment start). The line is due at that dependency's time plus the gap,
   * and never before any other dependency.
   */
  timing: DepRef | undefined;
  /** `turn` and `response` lines: the client request the turn belongs to. */
  turn?: number;
  /** `block` lines: the block's number (counting from 0) and the client request it is anchored to. */
  block?: { index: number; anchor: number; anchorResponse: number };
}

/** The causal plan of a whole segment: one entry per agent line, in recorded order. */
export interface CausalPlan {
  lines: CausalLine[];
}

const PROMPT = "session/prompt";
const CANCEL = "session/cancel";

interface PendingRequest {
  step: number;
  key: string;
  method: string;
}

interface Block {
  index: number;
  key: string;
  /** The client request whose response the block is timed from, once a line decides it. */
  anchor: number | undefined;
  /** The anchor when no line decides: the prompt answered just before the block. */
  fallback: number;
  lines: number[];
}

/** Where a tool call was first announced: in the turn of a client request, or in a block. */
type ToolOwner = { kind: "request"; step: number } | { kind: "block"; block: Block };

/** Compute the causal dependencies of every agent line of `steps` (see CausalReason). */
export function planCausal(steps: readonly Step[]): CausalPlan {
  return new Planner(steps).plan();
}

class Planner {
  private readonly lines = new Map<number, CausalLine>();
  /** Client requests sent and not yet answered in the recording, in send order. */
  private readonly pending: PendingRequest[] = [];
  /** Client request step → the step of its recorded response. */
  private readonly responseOf = new Map<number, number>();
  /** Turn key → client lines (cancel, answers to agent requests) the rest of that turn waits for. */
  private readonly extras = new Map<string, number[]>();
  /** Turn key → the last agent line of that turn so far. */
  private readonly lastInTurn = new Map<string, number>();
  private readonly toolOwner = new Map<string, ToolOwner>();
  /** Agent request id → the turn key it was sent in, to attribute the client's answer. */
  private readonly agentRequestTurn = new Map<string, string>();
  private lastAnsweredPrompt: number | undefined;
  private previousAgent: number | undefined;
  /** Agent lines (and client answers) seen while nothing is pending, not yet split into blocks. */
  private idleRun: number[] = [];
  private blockCount = 0;

  constructor(private readonly steps: readonly Step[]) {}

  plan(): CausalPlan {
    this.steps.forEach((step, index) => {
      if (step.from === "client") this.onClient(index);
      else this.onAgent(index, step);
    });
    this.flushIdleRun();
    const lines = [...this.lines.values()].sort((a, b) => a.step - b.step);
    return { lines };
  }

  private onClient(index: number): void {
    const step = this.steps[index];
    if (step.from !== "client") return;
    const message = step.message;
    if (message.kind === "request") {
      // Something is pending from here on: the agent lines gathered while idle form their blocks now.
      this.flushIdleRun();
      this.pending.push({ step: index, key: idKey(message.id), method: message.method });
    } else if (message.kind === "notification") {
      if (message.method !== CANCEL) return;
      const prompt = this.latestPending(PROMPT);
      if (prompt) this.addExtra(turnKey(prompt.step), index);
    } else if (this.idleRun.length > 0 && this.pending.length === 0) {
      // An answer to a request sent in an idle block: attributed once the blocks are known.
      this.idleRun.push(index);
    } else {
      this.onAnswer(index, message.id);
    }
  }

  private onAnswer(index: number, id: JsonRpcId): void {
    const key = this.agentRequestTurn.get(idKey(id));
    if (key !== undefined) this.addExtra(key, index);
  }

  private onAgent(index: number, step: AgentStep): void {
    const message = step.message;
    if (message?.kind === "response") {
      const at = this.pending.findIndex((p) => p.key === idKey(message.id));
      if (at >= 0) {
        const [request] = this.pending.splice(at, 1);
        this.responseOf.set(request.step, index);
        if (request.method === PROMPT) this.lastAnsweredPrompt = request.step;
        this.addTurnLine(index, step, request.step, "response");
        return;
      }
    }
    // The turn of the latest prompt still pending; failing that, of any pending request (a
    // session/load replays its history inside its own "turn").
    const owner = this.latestPending(PROMPT) ?? this.pending.at(-1);
    if (owner) {
      this.addTurnLine(index, step, owner.step, "turn");
    } else if (this.lastAnsweredPrompt !== undefined) {
      this.idleRun.push(index);
    } else {
      const deps: DepRef[] = this.previousAgent === undefined ? [] : [{ kind: "agent", step: this.previousAgent }];
      this.addLine({ step: index, t: step.t, reason: "no-turn", deps, timing: latest(deps) });
    }
  }

  private addTurnLine(index: number, step: AgentStep, request: number, reason: "turn" | "response"): void {
    const key = turnKey(request);
    const deps: DepRef[] = [{ kind: "client", step: request }];
    for (const extra of this.extras.get(key) ?? []) deps.push({ kind: "client", step: extra });
    const previous = this.lastInTurn.get(key);
    if (previous !== undefined) deps.push({ kind: "agent", step: previous });
    this.lastInTurn.set(key, index);
    this.noteAgentRequest(step, key);
    for (const id of toolCallIds(step)) {
      if (!this.toolOwner.has(id)) this.toolOwner.set(id, { kind: "request", step: request });
    }
    this.addLine({ step: index, t: step.t, reason, deps, timing: latest(deps), turn: request });
  }

  /**
   * Split the idle run into agent-initiated blocks and plan them. A block is anchored to the
   * request in whose turn the first already-known tool call it mentions was announced (default:
   * the prompt answered just before the run); a line whose known tool call belongs to another
   * anchor starts a new block (0.100.0 s4: bg1's follow-up, then bg2's).
   */
  private flushIdleRun(): void {
    const run = this.idleRun;
    if (run.length === 0) return;
    this.idleRun = [];
    const fallback = this.lastAnsweredPrompt;
    if (fallback === undefined) throw new Error("idle run without an answered prompt");
    const blocks: Block[] = [];
    let current = this.newBlock(fallback);
    blocks.push(current);
    for (const index of run) {
      const step = this.steps[index];
      if (step.from === "client") {
        if (step.message.kind === "response") this.onAnswer(index, step.message.id);
        continue;
      }
      const ids = toolCallIds(step);
      const deciding = ids
        .map((id) => this.toolOwner.get(id))
        .find((owner) => owner !== undefined && !(owner.kind === "block" && owner.block === current));
      if (deciding) {
        const anchor = this.resolveOwner(deciding);
        if (current.anchor === undefined) {
          current.anchor = anchor;
        } else if (anchor !== current.anchor) {
          current = this.newBlock(fallback);
          current.anchor = anchor;
          blocks.push(current);
        }
      }
      current.lines.push(index);
      this.noteAgentRequest(step, current.key);
      for (const id of ids) if (!this.toolOwner.has(id)) this.toolOwner.set(id, { kind: "block", block: current });
    }
    for (const block of blocks) this.planBlock(block);
  }

  private planBlock(block: Block): void {
    let anchor = block.anchor ?? block.fallback;
    let anchorResponse = this.responseOf.get(anchor);
    if (anchorResponse === undefined) {
      // Cannot happen while idle (every request was answered); fall back to the prompt before.
      anchor = block.fallback;
      anchorResponse = this.responseOf.get(anchor);
    }
    if (anchorResponse === undefined) throw new Error(`block anchored to unanswered request at step ${anchor}`);
    let previous = anchorResponse;
    for (const index of block.lines) {
      const step = this.steps[index];
      const deps: DepRef[] = [{ kind: "agent", step: previous }];
      for (const extra of this.extras.get(block.key) ?? []) {
        if (extra < index) deps.push({ kind: "client", step: extra });
      }
      this.addLine({
        step: index,
        t: step.t,
        reason: "block",
        deps,
        timing: latest(deps),
        block: { index: block.index, anchor, anchorResponse },
      });
      previous = index;
    }
  }

  private newBlock(fallback: number): Block {
    const index = this.blockCount++;
    return { index, key: `block:${index}`, anchor: undefined, fallback, lines: [] };
  }

  private resolveOwner(owner: ToolOwner): number {
    return owner.kind === "request" ? owner.step : (owner.block.anchor ?? owner.block.fallback);
  }

  private latestPending(method: string): PendingRequest | undefined {
    for (let i = this.pending.length - 1; i >= 0; i--) if (this.pending[i].method === method) return this.pending[i];
    return undefined;
  }

  private addExtra(key: string, clientStep: number): void {
    const list = this.extras.get(key) ?? [];
    list.push(clientStep);
    this.extras.set(key, list);
  }

  private noteAgentRequest(step: AgentStep, key: string): void {
    if (step.message?.kind === "request") this.agentRequestTurn.set(idKey(step.message.id), key);
  }

  private addLine(line: CausalLine): void {
    this.lines.set(line.step, line);
    this.previousAgent = line.step;
  }
}

function turnKey(request: number): string {
  return `request:${request}`;
}

/** The dependency recorded last (the highest step), or undefined for none. */
function latest(deps: readonly DepRef[]): DepRef | undefined {
  let best: DepRef | undefined;
  for (const dep of deps) if (!best || dep.step > best.step) best = dep;
  return best;
}

/** The tool call ids an agent line mentions: an update's `toolCallId`, a permission request's `toolCall`. */
function toolCallIds(step: AgentStep): string[] {
  const params = step.msg.params;
  if (!isJsonObject(params)) return [];
  const ids: string[] = [];
  for (const holder of [params.update, params.toolCall]) {
    if (isJsonObject(holder) && typeof holder.toolCallId === "string") ids.push(holder.toolCallId);
  }
  return ids;
}
