import type { Draft } from "./draft.js";
import { interruptedPromptsOf } from "./interrupted-marks.js";
import { questionNoticesOf } from "./replayed-notices.js";
import type { InterruptedPrompt, PromptNotices } from "./transcript-item.js";

import type { LocalToolFacts } from "./tool-call-view.js";

export type { LocalToolFacts };
import { agentLabel, profileOf } from "./profiles/select-profile.js";
import {
  displayStatus,
  isFinalStatus,
  type CheckpointMark,
  type FileWrite,
  type SessionState,
  type ToolCallView,
  type TerminalView,
  type ToolDisplayStatus,
} from "./state.js";

/**
 * The facts from the local log that an agent's replay lacks: tool call kinds, content and
 * terminals, and which commands were still running. Carried in `replay_started` so the fold stays pure.
 */
export interface LocalHistory {
  tools: Record<string, LocalToolFacts>;
  terminals: Record<string, TerminalView>;
  /** The writes conch served and what `/undo` put back: a replay knows nothing of them. */
  writes?: FileWrite[];
  undone?: Record<string, string[]>;
  checkpoints?: CheckpointMark[];
  /** The session's folder as the log knew it: paths are shown relative to it even if the agent never reopened the session. */
  cwd?: string;
  /** The prompts the person interrupted, which the replay does not say. */
  interrupted?: InterruptedPrompt[];
  /** The notices of the questions the agent asked the person, which went through conch and not the agent's transcript. */
  notices?: PromptNotices[];
}

/** Extracts the local facts from the state folded from a session's own log. */
export function localHistoryOf(local: SessionState): LocalHistory {
  const tools: Record<string, LocalToolFacts> = {};
  for (const t of Object.values(local.toolCalls)) {
    const term = t.terminalId ? local.terminals[t.terminalId] : undefined;
    tools[t.toolCallId] = {
      title: t.title || undefined,
      kind: t.kind,
      content: t.content,
      locations: t.locations,
      terminalId: t.terminalId,
      // A call conch closed itself (rejected, cancelled) is not running, whatever its terminal said.
      openAtEnd: !isFinalStatus(t) || t.localStatus === "interrupted" || (term !== undefined && !term.exited && !t.localStatus),
      interrupted: t.localStatus === "interrupted" || undefined,
      status: displayStatus(t),
      ...(t.permission ? { permission: t.permission } : {}),
    };
  }
  const interrupted = interruptedPromptsOf(local);
  const notices = questionNoticesOf(local);
  return {
    tools,
    terminals: local.terminals,
    ...(interrupted.length ? { interrupted } : {}),
    ...(notices.length ? { notices } : {}),
    ...(local.writes || local.checkpoints ? { writes: local.writes ?? [], undone: local.undone ?? {} } : {}),
    ...(local.checkpoints ? { checkpoints: local.checkpoints } : {}),
    ...(local.info?.cwd ? { cwd: local.info.cwd } : {}),
  };
}

/** Says which calls conch recorded that the agent's replay left out (codex 2.x drops a turn whose command never ended). */
function noteMissing(d: Draft, missing: LocalToolFacts[]): void {
  const word = (status: ToolDisplayStatus) => (status === "ended_with_agent" ? "ended with the agent" : status.replace(/_/g, " "));
  const names = missing.slice(0, 3).map((f) => `\`${f.title ?? "a tool call"}\`${f.status ? ` (${word(f.status)})` : ""}`);
  const more = missing.length > 3 ? ` and ${missing.length - 3} more` : "";
  d.addItem({
    kind: "notice",
    id: d.nextId("i"),
    level: "info",
    text: `${agentLabel(d.s)}'s replay leaves out ${missing.length === 1 ? "a tool call" : `${missing.length} tool calls`} that conch recorded: ${names.join(", ")}${more}; \`conch export\` of this session shows conch's own record`,
  });
}

/**
 * Fills what the agent's replay lacks from conch's own log: the replay wins; the log adds kinds,
 * content, locations, terminal screens and permission answers (a replay never asks again), and a
 * command the log saw running that the replay calls completed without any exit status is shown as
 * "state unknown after resume", not a false completion.
 * A call the replay has not shown by its response may still come in its tail (gemini): its facts
 * wait for it (`fillFromTail`), and only what the tail never showed is named as left out.
 */
export function applyLocalHistory(d: Draft, local: LocalHistory): void {
  const missing: Record<string, LocalToolFacts> = {};
  for (const [id, facts] of Object.entries(local.tools)) {
    if (d.tool(id)) fillTool(d, id, facts);
    else missing[id] = facts;
  }
  if (d.s.replayTail && Object.keys(missing).length) d.s.tailLocalTools = missing;
  else if (Object.keys(missing).length) noteMissing(d, Object.values(missing));
  if (local.writes) {
    d.s.writes = local.writes;
    d.s.undone = local.undone;
  }
  if (local.checkpoints) d.s.checkpoints = local.checkpoints;
  if (local.cwd) d.s.localCwd = local.cwd;
  // A screen from the log is a snapshot: live only while the replay says its call still runs.
  for (const [id, view] of Object.entries(local.terminals)) {
    if (d.s.terminals[id]) continue;
    const tool = view.toolCallId ? d.tool(view.toolCallId) : undefined;
    const running = tool !== undefined && !isFinalStatus(tool);
    d.terminals()[id] = { ...view, history: true, exited: view.exited || !running };
  }
}

/**
 * A call the replay shows, while it runs: it looks as the log knew it (title, kind, content, its
 * terminal's screen) from its first update, as the replay's end would make it, since its card may
 * be printed before then. Whether a command the log saw running really ended waits for the end.
 */
export function fillFromReplay(d: Draft, id: string): ToolCallView | undefined {
  const local = d.s.replayLocal;
  const facts = local?.tools[id];
  if (!facts || !d.tool(id)) return undefined;
  d.setTool(filledLooks(d.tool(id)!, facts));
  const tool = d.tool(id)!;
  const view = facts.terminalId ? local!.terminals[facts.terminalId] : undefined;
  // Only once the call is over, as the replay's end adds it: a call still running gets its screen then.
  if (view && !d.s.terminals[view.terminalId] && isFinalStatus(tool))
    d.terminals()[view.terminalId] = { ...view, history: true, exited: true };
  return tool;
}

/** The call with what it lacks of the log's title, kind, content, locations, terminal and permission answer, and the log's refusal. */
function filledLooks(tool: ToolCallView, facts: LocalToolFacts): ToolCallView {
  const next = { ...tool };
  if (facts.title) next.title = facts.title;
  if (!next.kind && facts.kind) next.kind = facts.kind;
  if (next.content.length === 0 && facts.content.length) next.content = facts.content;
  if (next.locations.length === 0 && facts.locations.length) next.locations = facts.locations;
  if (!next.terminalId && facts.terminalId) next.terminalId = facts.terminalId;
  if (!next.permission && facts.permission) next.permission = facts.permission;
  // Refused or cancelled before it ran: the replay's "failed" (claude: "Tool permission request failed") is that.
  if (next.status === "failed" && !next.localStatus && (facts.status === "cancelled" || facts.status === "rejected"))
    next.localStatus = facts.status;
  return next;
}

function fillTool(d: Draft, id: string, facts: LocalToolFacts): void {
  const profile = profileOf(d.s);
  const next = filledLooks(d.tool(id)!, facts);
  const exitedInPoll = (next.polls ?? []).some((pid) => {
    const poll = d.tool(pid);
    return poll !== undefined && profile.hasExitStatus(poll);
  });
  if (facts.openAtEnd && next.status === "completed" && !profile.hasExitStatus(next) && !exitedInPoll && !next.localStatus) {
    next.localStatus = facts.interrupted ? "interrupted" : "unknown";
  }
  d.setTool(next);
}

/** A call the replay's tail shows now: the log's facts for it, kept since the replay's response, fill it (the call as filled). */
export function fillFromTail(d: Draft, id: string): ToolCallView | undefined {
  const facts = d.s.tailLocalTools?.[id];
  if (!facts || !d.tool(id)) return undefined;
  fillTool(d, id, facts);
  const rest = { ...d.s.tailLocalTools };
  delete rest[id];
  d.s.tailLocalTools = Object.keys(rest).length ? rest : undefined;
  return d.tool(id);
}

/** The replay's tail is over: what conch recorded that it never showed is named as left out. */
export function endReplayTail(d: Draft): void {
  d.s.replayTail = false;
  const missing = d.s.tailLocalTools;
  if (!missing) return;
  d.s.tailLocalTools = undefined;
  noteMissing(d, Object.values(missing));
}
