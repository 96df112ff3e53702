import type { ToolCall, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { Draft } from "./draft.js";
import { applyTerminalMeta } from "./apply-terminal.js";
import { isFinalStatus, type ToolCallView } from "./state.js";
import { noteStoppedCall } from "./stop-notes.js";
import { metaWithoutTerminalStreams, readTerminalMeta } from "./terminal-meta.js";
import { profileOf } from "./profiles/select-profile.js";
import { placeBeforeCall } from "./replayed-notices.js";
import { endWords, noteDetachedEnd } from "./apply-command.js";

type ToolCallFields = ToolCall | ToolCallUpdate;

/**
 * A call without content or locations shares these: no one writes into a call's lists (an update
 * replaces them), and a flood of calls kept two empty arrays each. Frozen, so a write would throw.
 */
const NO_CONTENT = Object.freeze([]) as unknown as ToolCallView["content"];
const NO_LOCATIONS = Object.freeze([]) as unknown as ToolCallView["locations"];

function terminalIdFromContent(fields: ToolCallFields): string | undefined {
  for (const c of fields.content ?? []) if (c && c.type === "terminal") return c.terminalId;
  return undefined;
}

/**
 * Creates or merges a tool call from whichever message brings it: `tool_call`, `tool_call_update`
 * or a permission request. Fields present in the message replace the old ones; an update that only
 * carries `_meta` erases nothing.
 */
export function upsertToolCall(
  d: Draft,
  fields: ToolCallFields,
  turnId: () => string,
  history: boolean,
  /** The call of the subagent whose session sent this (the draft's child sessions). */
  subagentCall?: string,
): ToolCallView {
  const id = fields.toolCallId;
  const old = d.tool(id);
  const meta = metaWithoutTerminalStreams(fields._meta);
  const profile = profileOf(d.s);
  let tool: ToolCallView;
  if (!old) {
    tool = {
      toolCallId: id,
      turnId: "",
      title: fields.title ?? "",
      kind: fields.kind ?? undefined,
      status: fields.status ?? "pending",
      content: fields.content ?? NO_CONTENT,
      locations: fields.locations ?? NO_LOCATIONS,
      rawInput: fields.rawInput,
      rawOutput: fields.rawOutput,
      meta,
      history,
      lastSeq: d.s.seq,
      lastAt: d.at,
      startedAt: d.at,
      // Declared up front, unset: fields a later update sets. V8 (Node 20) gives an object spread
      // that adds a key its source lacks a map of its own, and a flood of 150,000 calls then kept
      // 150,000 maps (~500 B each).
      localStatus: undefined,
      endedAt: undefined,
      detached: undefined,
      terminalId: undefined,
    };
    // A poll of a running command (codex replays each `write_stdin` as its own call): shown under it.
    const parentId = profile.pollParent(tool, d.s.toolCalls);
    const parent = parentId ? d.tool(parentId) : undefined;
    if (parent) {
      d.setTool({ ...parent, polls: [...(parent.polls ?? []), id] });
      tool.turnId = parent.turnId;
      tool.pollOf = parent.toolCallId;
    } else if (!groupUnderSubagent(d, tool, subagentCall ?? profile.subagentParent(fields, d.s.toolCalls))) {
      tool.turnId = turnId();
      if (history) placeBeforeCall(d, tool.turnId);
      d.addItem({ kind: "tool", id: d.nextId("i"), turnId: tool.turnId, toolCallId: id, history });
    }
  } else {
    tool = {
      ...old,
      title: fields.title ?? old.title,
      kind: fields.kind ?? old.kind,
      status: fields.status ?? old.status,
      content: fields.content ?? old.content,
      locations: fields.locations ?? old.locations,
      rawInput: fields.rawInput !== undefined ? fields.rawInput : old.rawInput,
      rawOutput: fields.rawOutput !== undefined ? fields.rawOutput : old.rawOutput,
      meta: Object.keys(meta).length ? { ...old.meta, ...meta } : old.meta,
      lastSeq: d.s.seq,
      lastAt: d.at,
      // A live update after a resume, or a sign of life after a stall, ends the local guess.
      localStatus:
        old.localStatus === "stalled" || ((old.localStatus === "unknown" || old.localStatus === "interrupted") && !history)
          ? undefined
          : old.localStatus,
    };
  }
  const terminalId = terminalIdFromContent(fields);
  if (terminalId) tool.terminalId = terminalId;
  const tmeta = readTerminalMeta(fields._meta, id);
  if (tmeta.info && !tool.terminalId) tool.terminalId = tmeta.info.terminalId;
  if (tool.status === "completed" || tool.status === "failed") {
    if (tool.endedAt === undefined) tool.endedAt = d.at;
    tool.detached = undefined;
  }
  d.setTool(tool);
  applyTerminalMeta(d, tmeta, id, history);
  if (old && tool.title !== old.title) retitleDisplayTerminal(d, tool, old.title);
  if (tool.pollOf) resolveFromPoll(d, tool, profile.hasExitStatus(tool));
  // The agent reports the end of a call its turn left running: its card said "running".
  if (old?.detached && !tool.detached && !history) noteDetachedEnd(d, tool, endWords(d, tool));
  // A call the person stopped, in its turn: the agent may call it completed.
  else if (old && !isFinalStatus(old) && isFinalStatus(tool) && !history) noteStoppedCall(d, tool, endWords(d, tool));
  return tool;
}

/**
 * A display terminal named after its call's first title follows the call's later title: claude
 * opens it as the generic "Terminal" and names the command in the next update, and a pane left
 * saying "Terminal" disagrees with its own card (and with the same session resumed).
 */
function retitleDisplayTerminal(d: Draft, tool: ToolCallView, oldTitle: string): void {
  const term = tool.terminalId ? d.s.terminals[tool.terminalId] : undefined;
  if (!term || term.source !== "display" || term.toolCallId !== tool.toolCallId || term.command !== oldTitle || !tool.title) return;
  d.terminals()[term.terminalId] = { ...term, command: tool.title };
}

/**
 * A call a subagent made joins the fold of the call that started the subagent (the outermost one,
 * for a subagent's own subagents). False when that call is unknown: the call is shown on its own.
 */
function groupUnderSubagent(d: Draft, tool: ToolCallView, parentId: string | undefined): boolean {
  let parent = parentId && parentId !== tool.toolCallId ? d.tool(parentId) : undefined;
  if (parent?.subagentOf) parent = d.tool(parent.subagentOf);
  if (!parent) return false;
  d.setTool({ ...parent, subagentCalls: [...(parent.subagentCalls ?? []), tool.toolCallId] });
  tool.turnId = parent.turnId;
  tool.subagentOf = parent.toolCallId;
  return true;
}

/** A poll that saw the process exit resolves its command's "unknown after resume" state. */
function resolveFromPoll(d: Draft, poll: ToolCallView, sawExit: boolean): void {
  const parent = d.tool(poll.pollOf!);
  if (!parent || parent.localStatus !== "unknown" || !sawExit) return;
  d.setTool({ ...parent, localStatus: undefined });
}

/**
 * A tool call with no id: nothing could ever close it, so held open it would stall the turn. It is
 * refused at once, with a notice in the turn; true when it was.
 */
export function refusedWithoutId(d: Draft, u: ToolCallFields & { sessionUpdate: string }): boolean {
  if (typeof u.toolCallId === "string" && u.toolCallId !== "") return false;
  const title = typeof u.title === "string" && u.title ? ` ("${u.title}")` : "";
  d.addItem({
    kind: "notice",
    id: d.nextId("i"),
    turnId: d.s.currentTurnId,
    level: "warning",
    text: `the agent sent a ${u.sessionUpdate}${title} without a toolCallId: ignored as malformed`,
  });
  return true;
}

/** A call the agent ended as done though the cancel stopped it (its profile read so): shown cancelled. */
export function closeAsCancelled(d: Draft, id: string): void {
  const tool = d.tool(id);
  if (tool && !tool.localStatus) d.setTool({ ...tool, status: "failed", localStatus: "cancelled", endedAt: tool.endedAt ?? d.at });
}
