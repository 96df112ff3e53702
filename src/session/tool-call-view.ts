import type { ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind } from "@agentclientprotocol/sdk";

/** A tool call status as conch shows it: the protocol's, plus what conch concluded itself. */
export type ToolDisplayStatus = ToolCallStatus | LocalToolStatus | "background";

/** What conch concluded about a call the agent never closed. */
export type LocalToolStatus = "cancelled" | "rejected" | "stalled" | "unknown" | "interrupted" | "ended" | "ended_with_agent";

/** What conch's own log knew about a tool call when its last process ended. */
export interface LocalToolFacts {
  /** The title shown live: a replay may name the call by its tool ("exec_command") instead. */
  title?: string;
  kind?: ToolKind;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  terminalId?: string;
  /** Not final, and its terminal had not exited, when the log ends: it was still running. */
  openAtEnd: boolean;
  /** The agent died while it ran: shown so, whatever a later replay says. */
  interrupted?: boolean;
  /** How it ended in the log, for a replay that leaves it out. */
  status?: ToolDisplayStatus;
  /** The permission answer the log recorded: a replay never asks again, so it cannot say. */
  permission?: ToolCallView["permission"];
}

/** One tool call, merged field by field from every message that mentioned it. */
export interface ToolCallView {
  toolCallId: string;
  turnId: string;
  title: string;
  kind?: ToolKind;
  /** The agent's last reported status. */
  status: ToolCallStatus;
  /**
   * What conch concluded when the agent never said: rejected, cancelled, stalled, unknown after a
   * resume, interrupted when the agent died while it ran, ended when its command left the agent's
   * process tree and the agent never said how, ended with the agent when a command that outlived
   * its turn was still running as the agent stopped (its process tree goes with it).
   */
  localStatus?: LocalToolStatus;
  /**
   * Still running in the agent's own session after its turn answered (codex's unified exec): shown
   * as running in the background, not waited on. A later update for it goes on as usual.
   */
  detached?: boolean;
  /** The processes conch found running the call's command when its turn ended (their pids). */
  pids?: number[];
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /** `_meta` merged shallowly across updates, minus the terminal byte streams. */
  meta: Record<string, unknown>;
  /** Display-only or client terminal shown for this call. */
  terminalId?: string;
  /** Permission decision for this call, if one was asked. */
  permission?: {
    optionName?: string;
    optionKind?: string;
    outcome: "selected" | "cancelled";
    source: string;
    /** The rule that answered, as written, and where: "execute(npm test)", "in .conch.json". */
    rule?: { text: string; from: string };
    /** The person answered from another terminal (`conch attach --write`). */
    via?: "attached";
  };
  history: boolean;
  /** Seq and time of the last event that touched this call: stall detection and "sign of life". */
  lastSeq: number;
  lastAt?: number;
  startedAt: number;
  endedAt?: number;
  /**
   * Known only from a permission request: the agent never announced it (`tool_call`) and may never
   * close it (a permission hook's own id). Once its turn has ended it is no open work.
   */
  askedOnly?: boolean;
  /** Replayed polls of this command (codex `write_stdin` calls) shown under it: their ids. */
  polls?: string[];
  /** Set on a poll: the command it belongs to. It has no transcript item of its own. */
  pollOf?: string;
  /**
   * Set on a call a subagent made: the call that started the subagent (claude's Task/Agent call,
   * codex's spawnAgent, a draft `subagent_spawned`). It is shown in that call's fold, not on its own.
   */
  subagentOf?: string;
  /** On a call that started a subagent: the calls the subagent made, in order. */
  subagentCalls?: string[];
}

/** Statuses after which a tool call will not change on its own. */
export function isFinalStatus(tool: ToolCallView): boolean {
  return tool.status === "completed" || tool.status === "failed" || tool.localStatus !== undefined;
}

/** The status to show: a local conclusion wins over a stale agent status. */
export function displayStatus(tool: ToolCallView): ToolDisplayStatus {
  // "completed" with no exit status after a resume is the agent's guess; what conch's own log knew wins.
  if (tool.localStatus === "unknown" || tool.localStatus === "interrupted" || tool.localStatus === "ended_with_agent")
    return tool.localStatus;
  // A call refused at the permission prompt "fails" at most agents: what happened is the refusal.
  if (tool.status === "failed" && (tool.localStatus === "rejected" || tool.localStatus === "cancelled")) return tool.localStatus;
  if (tool.status === "completed" || tool.status === "failed") return tool.status;
  if (tool.localStatus) return tool.localStatus;
  return tool.detached ? "background" : tool.status;
}
