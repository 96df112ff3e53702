export { planCausal, toolCallIds, type CausalLine, type CausalPlan, type CausalReason, type DepRef } from "./causal-plan.js";
export { parseReplayArgs, parseSpeed, type ReplayCliArgs } from "./cli-args.js";
export type { JsonObject, JsonRpcId } from "./jsonrpc.js";
export {
  escapeProjectPath,
  loadTrace,
  parseTrace,
  processCount,
  selectProcess,
  substituteInString,
  substitutePlaceholders,
  type EofPolicy,
  type PlaceholderValues,
  type Trace,
  type TraceEntry,
  type TraceSegment,
} from "./load-trace.js";
export {
  runReplayAgent,
  type ClientAnswer,
  type ReplayAgentHandle,
  type ReplayAgentOptions,
  type ReplayExit,
  type ReplayLogEntry,
} from "./replay-agent.js";
export { replayMainPath, spawnReplayAgentCommand, type SpawnReplayOptions } from "./spawn.js";
