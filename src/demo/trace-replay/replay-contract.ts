// What a replay agent is given and what it hands back: its options, its diagnostics, and the
// handle of a running replay (see replay-agent.ts).
import type { Readable, Writable } from "node:stream";
import type { JsonObject, JsonRpcId } from "./jsonrpc.js";
import type { TraceSegment } from "./load-trace.js";

/** How to run a replay agent over a pair of streams. */
export interface ReplayAgentOptions {
  /** What the client writes (the agent's stdin). */
  input: Readable;
  /** Where the agent's messages go (the agent's stdout). */
  output: Writable;
  /** Which agent process of the trace to play; default 1. */
  process?: number;
  /** Divides the recorded gaps between agent lines; default 1, `Infinity` for no delays. */
  speed?: number;
  /** `${PROJECT}` until the client names a cwd; default `process.cwd()`. */
  project?: string;
  /** `${HOME}`; default `os.homedir()`. */
  home?: string;
  /** `${TMPDIR}`; default `os.tmpdir()`. */
  tmpdir?: string;
  /** Diagnostics sink; default: one JSON object per line on stderr. */
  log?: (entry: ReplayLogEntry) => void;
  /**
   * Release each agent line when what caused it has happened (its request, its prompt, the
   * answer or cancel it follows, the turn an agent-initiated block belongs to) instead of after
   * every earlier client line; default false (strict recorded order).
   */
  causal?: boolean;
}

/** One diagnostic: what happened, plus details. */
export interface ReplayLogEntry {
  event: string;
  [field: string]: unknown;
}

/** The client's answer to one agent request, next to what the recorded client answered. */
export interface ClientAnswer {
  /** The agent request's id (agent id space, as recorded). */
  id: JsonRpcId;
  /** The agent request's method, e.g. `session/request_permission`. */
  method: string | undefined;
  /** The recorded client response, placeholders substituted. */
  recorded: JsonObject;
  /** The response the client actually sent. */
  actual: JsonObject;
}

/** Why and how the replay agent ended. */
export interface ReplayExit {
  /** The exit code a real process would have; null when stopped as if by a signal. */
  code: number | null;
  reason: "stdin-closed" | "stopped" | "output-error";
}

/** A running replay agent. */
export interface ReplayAgentHandle {
  readonly segment: TraceSegment;
  /**
   * Settles when the agent is done: stdin closed (if the recorded agent exited on EOF),
   * `stop()`, or a broken output.
   */
  readonly exited: Promise<ReplayExit>;
  /** `"complete"` once every line of the segment was played, `"stopped"` if it ended first. */
  readonly finished: Promise<"complete" | "stopped">;
  /** Settles when the client closes the agent's stdin, whatever the agent does about it. */
  readonly stdinClosed: Promise<void>;
  /** Every answer the client gave to an agent request, in trace order. */
  readonly clientAnswers: readonly ClientAnswer[];
  /** Stop at once, like SIGTERM. */
  stop(): void;
}
