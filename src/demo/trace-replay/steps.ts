import { classifyMessage, type JsonObject, type RpcMessage } from "./jsonrpc.js";
import type { TraceSegment } from "./load-trace.js";

/** An agent line of the trace: sent as recorded (`message` is undefined if it is not JSON-RPC). */
export interface AgentStep {
  from: "agent";
  t: number;
  msg: JsonObject;
  message: RpcMessage | undefined;
}

/** A client line of the trace: what the replay expects the client to send. */
export interface ClientStep {
  from: "client";
  t: number;
  message: RpcMessage;
}

/** One wire line of a segment, notes left out. */
export type Step = AgentStep | ClientStep;

/** The wire lines of a segment in recorded order; throws on a client line that is not JSON-RPC. */
export function toSteps(segment: TraceSegment): Step[] {
  const steps: Step[] = [];
  for (const entry of segment.entries) {
    if (entry.dir === "note") continue;
    const message = classifyMessage(entry.msg);
    if (entry.dir === "agent") {
      // Sent as recorded even if it is not valid JSON-RPC: the point is the agent's exact bytes.
      steps.push({ from: "agent", t: entry.t, msg: entry.msg, message });
    } else if (message) {
      steps.push({ from: "client", t: entry.t, message });
    } else {
      throw new Error(`client line at t=${entry.t} is not a JSON-RPC message`);
    }
  }
  return steps;
}
