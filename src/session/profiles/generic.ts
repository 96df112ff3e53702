import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { ToolCallView } from "../state.js";
import type { AgentProfile, Normalized } from "./profile.js";
import { buildDisplay, PLAIN_RULES } from "./tool-display.js";
import { asRecord } from "../../json/record.js";
import { readStateUpdate, readThreadStatus } from "./turn-signals.js";

/**
 * The normalization every profile shares: the turn signals any agent may send (see
 * `turn-signals.ts`). A v2 `state_update` is only a signal; codex's thread status rides on an
 * update that may also carry a title.
 */
export function normalizePlain(update: SessionUpdate): Normalized[] {
  const state = readStateUpdate(update);
  if (state) return [state];
  const thread = readThreadStatus(update);
  return thread ? [{ update }, thread] : [{ update }];
}

/** Whether a call's `_meta` or `rawOutput` says how its command ended. */
export function plainExitStatus(tool: ToolCallView): boolean {
  if (tool.meta.terminal_exit) return true;
  const r = asRecord(tool.rawOutput);
  return r !== undefined && (typeof r.exit_code === "number" || typeof r.exitCode === "number");
}

/**
 * Any agent conch has no profile for: the protocol as written. It gives no turn signal of its own
 * beyond the prompt response, so a quiet period after it decides when the work is over.
 */
export const genericProfile: AgentProfile = {
  id: "generic",
  label: "the agent",
  turns: { endsAtResponse: false, callsOutliveTurn: false, outlivingCallsReport: false, markers: "never", replayOutlivesResponse: true },
  turnSignals: ["quiet_period"],
  // Unknown agents: the names the known ones use for "no approvals, no sandbox".
  permissiveModes: ["yolo", "bypassPermissions", "full-access", "danger-full-access", "agent-full-access"],
  missingFileReadsAsEmpty: false,
  normalize: normalizePlain,
  display: (tool, ctx) => buildDisplay(tool, ctx, PLAIN_RULES),
  isInternalUserText: () => false,
  subagentParent: () => undefined,
  pollParent: () => undefined,
  hasExitStatus: plainExitStatus,
};
