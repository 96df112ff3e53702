// The agent side of a recorded wire trace, played over raw ndjson JSON-RPC (not the ACP SDK:
// recorded messages must go out exactly as the real agent sent them, fields the SDK would
// reject included). Strict mode (the default) walks the trace in order: agent lines are sent
// when due, client lines are waited for (matched by method, or by id for answers to agent
// requests). Causal mode (`causal: true`) sends each agent line once what caused it has
// happened, so a client may send later prompts later than recorded (see causal-plan.ts).
import { homedir, tmpdir } from "node:os";
import type { Writable } from "node:stream";
import { CausalPlayer } from "./causal-player.js";
import { ClientInbox } from "./client-inbox.js";
import {
  classifyMessage,
  idKey,
  methodNotFound,
  withId,
  type JsonObject,
  type JsonRpcId,
  type RpcCall,
  type RpcMessage,
} from "./jsonrpc.js";
import { selectProcess, type Trace, type TraceSegment } from "./load-trace.js";
import type { ClientAnswer, ReplayAgentHandle, ReplayAgentOptions, ReplayExit, ReplayLogEntry } from "./replay-contract.js";
import { readLines } from "./ndjson.js";
import { Pacer } from "./pacer.js";
import { substitutePlaceholders, type PlaceholderValues } from "./placeholders.js";
import { toSteps, type AgentStep, type Step } from "./steps.js";

/** Methods whose `cwd` param is the project the trace calls `${PROJECT}`. */
const CWD_METHODS = new Set(["session/new", "session/load", "session/resume", "session/list"]);

/** Play the agent side of process `options.process` of `trace` over the given streams. */
export function runReplayAgent(trace: Trace, options: ReplayAgentOptions): ReplayAgentHandle {
  return new ReplayRun(selectProcess(trace, options.process ?? 1), options);
}

class ReplayRun implements ReplayAgentHandle {
  readonly exited: Promise<ReplayExit>;
  readonly finished: Promise<"complete" | "stopped">;
  readonly stdinClosed: Promise<void>;
  readonly clientAnswers: ClientAnswer[] = [];

  private readonly steps: Step[];
  private readonly inbox = new ClientInbox();
  private readonly pacer: Pacer;
  private readonly values: PlaceholderValues;
  private readonly log: (entry: ReplayLogEntry) => void;
  private readonly output: Writable;
  /** Recorded client request id → the id the client really used. */
  private readonly clientIds = new Map<string, JsonRpcId>();
  /** Agent request id → its method, to label the client's answers. */
  private readonly agentRequests = new Map<string, string>();
  private readonly detachInput: () => void;
  /** Causal mode only: the scheduler that replaces the in-order walk. */
  private readonly causal: CausalPlayer | undefined;
  /** The trace step of each entry of `clientAnswers`, to keep them in trace order. */
  private readonly answerSteps: number[] = [];
  private cursor = 0;
  private stopped = false;
  private resolveExited!: (exit: ReplayExit) => void;
  private resolveStdinClosed!: () => void;

  constructor(
    readonly segment: TraceSegment,
    options: ReplayAgentOptions,
  ) {
    this.steps = toSteps(segment);
    this.pacer = new Pacer(options.speed ?? 1, segment.startT);
    this.values = {
      project: options.project ?? process.cwd(),
      home: options.home ?? homedir(),
      tmpdir: options.tmpdir ?? tmpdir(),
    };
    this.log = options.log ?? logToStderr;
    this.output = options.output;
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
    this.stdinClosed = new Promise((resolve) => (this.resolveStdinClosed = resolve));
    this.output.on("error", this.onOutputError);
    this.causal = options.causal
      ? new CausalPlayer(this.steps, {
          speed: options.speed ?? 1,
          startT: segment.startT,
          emit: (step) => this.sendAgentLine(step),
          onComplete: () => this.log({ event: "segment-finished", process: this.segment.process }),
        })
      : undefined;
    this.detachInput = readLines(
      options.input,
      (line) => this.onLine(line),
      () => this.onInputClosed(),
    );
    this.finished = this.causal ? this.causal.finished : this.play();
  }

  stop(): void {
    this.end({ code: null, reason: "stopped" });
  }

  private async play(): Promise<"complete" | "stopped"> {
    for (; this.cursor < this.steps.length; this.cursor++) {
      const step = this.steps[this.cursor];
      if (step.from === "agent") {
        await this.pacer.wait(step.t);
        if (this.stopped) return "stopped";
        this.sendAgentLine(step);
      } else {
        const matched = await this.awaitClient(step.message);
        if (!matched) return "stopped";
        this.pacer.anchor(step.t);
      }
    }
    this.log({ event: "segment-finished", process: this.segment.process });
    return "complete";
  }

  /** Wait for the client message the trace expects; false if the replay stopped first. */
  private async awaitClient(expected: RpcMessage): Promise<boolean> {
    for (;;) {
      if (this.stopped) return false;
      if (expected.kind === "response") {
        const actual = this.inbox.takeResponse(expected.id);
        if (actual) {
          this.recordAnswer(expected.id, expected.msg, actual);
          return true;
        }
      } else {
        const actual = this.inbox.takeCall(expected.method);
        if (actual) {
          if (expected.kind === "request" && actual.kind === "request") {
            this.clientIds.set(idKey(expected.id), actual.id);
          }
          return true;
        }
      }
      await this.inbox.changed();
    }
  }

  private recordAnswer(id: JsonRpcId, recordedMsg: JsonObject, actual: JsonObject, traceStep = this.cursor): void {
    const answer: ClientAnswer = {
      id,
      method: this.agentRequests.get(idKey(id)),
      recorded: substitutePlaceholders(recordedMsg, this.values),
      actual,
    };
    // Causal mode may take answers out of trace order; keep the list in trace order.
    let at = this.answerSteps.length;
    while (at > 0 && this.answerSteps[at - 1] > traceStep) at--;
    this.answerSteps.splice(at, 0, traceStep);
    this.clientAnswers.splice(at, 0, answer);
    this.log({ event: "client-answer", ...answer });
  }

  private sendAgentLine(step: AgentStep): void {
    let msg = step.msg;
    const message = step.message;
    if (message?.kind === "response") {
      const realId = this.clientIds.get(idKey(message.id));
      if (realId === undefined) this.log({ event: "unmapped-response-id", id: message.id });
      else msg = withId(msg, realId);
    } else if (message?.kind === "request") {
      this.agentRequests.set(idKey(message.id), message.method);
    }
    this.write(substitutePlaceholders(msg, this.values));
  }

  private onLine(line: string): void {
    if (this.stopped) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.log({ event: "invalid-json", line });
      return;
    }
    const message = classifyMessage(value);
    if (!message) {
      this.log({ event: "not-json-rpc", line });
    } else if (message.kind === "response") {
      if (!this.agentRequests.has(idKey(message.id))) this.log({ event: "unexpected-response", id: message.id });
      if (this.causal) this.onCausalResponse(this.causal, message.id, message.msg);
      else this.inbox.addResponse(message.id, message.msg);
    } else {
      this.onCall(message);
    }
  }

  private onCall(call: RpcCall): void {
    this.noteCwd(call);
    if (this.causal) {
      this.onCausalCall(this.causal, call);
      return;
    }
    // Queue a call only while the rest of the segment still expects one more of its method;
    // anything beyond that is a call the recorded client never made.
    if (this.inbox.queuedCalls(call.method) < this.remainingExpected(call.method)) {
      this.inbox.addCall(call);
    } else {
      this.rejectCall(call);
    }
  }

  /** A call the trace has no (more) lines for: -32601 for a request, dropped if a notification. */
  private rejectCall(call: RpcCall): void {
    if (call.kind === "request") {
      this.log({ event: "unknown-request", method: call.method, id: call.id });
      this.write(methodNotFound(call.id, call.method));
    } else {
      this.log({ event: "ignored-notification", method: call.method });
    }
  }

  /** Causal mode: the nth call of a method is the recorded nth, whenever it comes. */
  private onCausalCall(player: CausalPlayer, call: RpcCall): void {
    const match = player.matchCall(call.method);
    if (!match) {
      this.rejectCall(call);
      return;
    }
    const recorded = match.step.message;
    if (recorded.kind === "request" && call.kind === "request") this.clientIds.set(idKey(recorded.id), call.id);
    player.arrived(match.index);
  }

  /** Causal mode: an answer to an agent request, matched by id. */
  private onCausalResponse(player: CausalPlayer, id: JsonRpcId, msg: JsonObject): void {
    const match = player.matchResponse(id);
    if (!match) {
      this.log({ event: "unmatched-response", id });
      return;
    }
    this.recordAnswer(id, match.step.message.msg, msg, match.index);
    player.arrived(match.index);
  }

  private remainingExpected(method: string): number {
    let count = 0;
    for (let i = this.cursor; i < this.steps.length; i++) {
      const step = this.steps[i];
      if (step.from === "client" && step.message.kind !== "response" && step.message.method === method) count++;
    }
    return count;
  }

  private noteCwd(call: RpcCall): void {
    if (!CWD_METHODS.has(call.method)) return;
    const params = call.msg.params;
    if (typeof params === "object" && params !== null && "cwd" in params && typeof params.cwd === "string") {
      this.values.project = params.cwd;
    }
  }

  private onInputClosed(): void {
    this.resolveStdinClosed();
    if (this.stopped) return;
    this.log({ event: "stdin-closed", eofPolicy: this.segment.eofPolicy });
    // Agents that ignored EOF in the recording keep running until they are killed.
    if (this.segment.eofPolicy === "exit") this.end({ code: 0, reason: "stdin-closed" });
  }

  private readonly onOutputError = (error: Error): void => {
    // Stays attached after the end: an unhandled 'error' on a late write would crash the process.
    if (this.stopped) return;
    this.log({ event: "output-error", message: error.message });
    this.end({ code: 1, reason: "output-error" });
  };

  private write(msg: JsonObject): void {
    if (this.stopped || this.output.destroyed || this.output.writableEnded) return;
    this.output.write(`${JSON.stringify(msg)}\n`);
  }

  private end(exit: ReplayExit): void {
    if (this.stopped) return;
    this.stopped = true;
    this.pacer.cancel();
    this.causal?.stop();
    this.inbox.interrupt();
    this.detachInput();
    this.resolveExited(exit);
  }
}

function logToStderr(entry: ReplayLogEntry): void {
  process.stderr.write(`${JSON.stringify({ source: "trace-replay", ...entry })}\n`);
}
