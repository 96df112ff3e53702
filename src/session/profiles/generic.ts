import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentRunState, ToolCallView } from "../state.js";
import type { AgentProfile, Normalized } from "./profile.js";
import { buildDisplay, PLAIN_RULES } from "./tool-display.js";
import { asRecord } from "../../json/record.js";

const RUN_STATES = new Set<string>(["running", "idle", "requires_action"]);

/**
 * ACP v2's `state_update` (draft): the agent's foreground state, and a snapshot of the work it runs
 * in the background. Any agent may send it; when one does, it is the best turn signal there is.
 */
export function readStateUpdate(update: SessionUpdate): Normalized | undefined {
  const u = update as { sessionUpdate?: unknown; state?: unknown; background?: unknown };
  if (u.sessionUpdate !== "state_update" || typeof u.state !== "string" || !RUN_STATES.has(u.state)) return undefined;
  return {
    signal: "agent_state",
    state: u.state as AgentRunState,
    background: Array.isArray(u.background) ? u.background.length : undefined,
  };
}

/** The protocol's own normalization, shared by every profile: v2 state updates become signals. */
export function normalizePlain(update: SessionUpdate): Normalized[] {
  const state = readStateUpdate(update);
  return state ? [state] : [{ update }];
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
  turns: { endsAtResponse: false, callsOutliveTurn: false, markers: "never", replayOutlivesResponse: true },
  missingFileReadsAsEmpty: false,
  normalize: normalizePlain,
  display: (tool, ctx) => buildDisplay(tool, ctx, PLAIN_RULES),
  isInternalUserText: () => false,
  pollParent: () => undefined,
  hasExitStatus: plainExitStatus,
};
