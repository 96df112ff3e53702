import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentRunState } from "../state.js";
import type { TurnSignal } from "./profile.js";
import { asRecord } from "../../json/record.js";

/**
 * The ways an agent can say its work is over, best first. Every profile accepts every one of them
 * (an agent may start sending a newer one at any release); `AgentProfile.turnSignals` says which
 * ones each agent family is known to give, and `conch agents --probe` prints that.
 */
export type TurnSignalSource =
  "state_update" | "thread_status" | "turn_ended" | "origin_marker" | "held_response" | "prompt_response" | "quiet_period";

/** One row of the table: the signal as it is on the wire, and what conch does with it. */
export interface TurnSignalSourceInfo {
  /** How the wire spells it. */
  wire: string;
  /** What it tells conch. */
  says: string;
}

/** The signals, best first (the order of `TurnSignalSource`). */
export const TURN_SIGNAL_SOURCES: Record<TurnSignalSource, TurnSignalSourceInfo> = {
  state_update: {
    wire: "session/update state_update (ACP v2 draft)",
    says: "running / idle / requires_action, and the background work it still runs",
  },
  thread_status: {
    wire: "session_info_update _meta.codex.threadStatus",
    says: "active (waitingOnApproval while it asks) → idle, framing every turn",
  },
  turn_ended: {
    wire: "_session/turn_ended notification",
    says: "a turn the agent ran on its own is over (claude-agent-acp PR #997)",
  },
  origin_marker: {
    wire: 'usage_update _meta["_claude/origin"]',
    says: "closes each turn, and names a turn the agent ran on its own",
  },
  held_response: {
    wire: "session/prompt response, held",
    says: "the agent answers only once its background work and follow-up are done",
  },
  prompt_response: {
    wire: "session/prompt response",
    says: "the prompt's turn is over; open tool calls and terminals are still waited on",
  },
  quiet_period: {
    wire: "(nothing)",
    says: "conch waits for 0.5 s of quiet after the response (5 s after background work ended)",
  },
};

/** The order of the table, best first. */
export const TURN_SIGNAL_ORDER = Object.keys(TURN_SIGNAL_SOURCES) as TurnSignalSource[];

const RUN_STATES = new Set<string>(["running", "idle", "requires_action"]);

/**
 * ACP v2's `state_update` (draft): the agent's foreground state, and a snapshot of the work it runs
 * in the background. Any agent may send it; when one does, it is the best turn signal there is.
 */
export function readStateUpdate(update: SessionUpdate): TurnSignal | undefined {
  const u = update as { sessionUpdate?: unknown; state?: unknown; background?: unknown };
  if (u.sessionUpdate !== "state_update" || typeof u.state !== "string" || !RUN_STATES.has(u.state)) return undefined;
  return {
    signal: "agent_state",
    state: u.state as AgentRunState,
    background: Array.isArray(u.background) ? u.background.length : undefined,
  };
}

/**
 * codex-acp 2.x frames every turn with `session_info_update` `_meta.codex.threadStatus`: `active`
 * (with `activeFlags: ["waitingOnApproval"]` while a permission is open), then `idle` just before
 * the prompt response. The Codex thread's own state, so it is read as the agent's run state.
 */
export function readThreadStatus(update: SessionUpdate): TurnSignal | undefined {
  if (update.sessionUpdate !== "session_info_update") return undefined;
  const status = asRecord(asRecord(asRecord(update._meta)?.codex)?.threadStatus);
  if (typeof status?.type !== "string") return undefined;
  if (status.type === "idle") return { signal: "agent_state", state: "idle" };
  if (status.type !== "active") return undefined;
  const flags = Array.isArray(status.activeFlags) ? status.activeFlags : [];
  return { signal: "agent_state", state: flags.includes("waitingOnApproval") ? "requires_action" : "running" };
}

/** The extension notifications that carry a turn signal: only these reach the session log. */
export const SIGNAL_NOTIFICATIONS: ReadonlySet<string> = new Set(["_session/turn_ended"]);

/**
 * An extension notification read as a turn signal. `_session/turn_ended` (claude-agent-acp PR #997:
 * `{sessionId, stopReason, _meta: {"_claude/origin": …}}`) is sent only between prompts, when a turn
 * the agent ran on its own ends.
 */
export function readSignalNotification(method: string, params: unknown): TurnSignal[] {
  if (method !== "_session/turn_ended" || !asRecord(params)) return [];
  const origin = asRecord(asRecord(asRecord(params)?._meta)?.["_claude/origin"]);
  return [{ signal: "turn_marker", origin: origin?.kind === "human" ? "prompt" : "agent" }];
}
