import type { ContentBlock, PlanEntry, SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import type { PlanRemoved, PlanUpdate } from "@agentclientprotocol/sdk/unstable";
import { planIdOf, planUpdateEntries } from "./apply-plan-update.js";
import { applySubagentLifecycle, applySubagentUpdate, subagentSessionCall } from "./apply-subagent.js";
import { refusedWithoutId, upsertToolCall } from "./apply-tool-call.js";
import { applySignal } from "./apply-signal.js";
import { beginAgentWork } from "./agent-work.js";
import { contentText } from "./content-text.js";
import type { Draft } from "./draft.js";
import { endReplayedTurn } from "./interrupted-marks.js";
import { endReplayTail, fillFromReplay, fillFromTail } from "./local-history.js";
import type { AgentProfile, NormalizeContext } from "./profiles/profile.js";
import { profileOf } from "./profiles/select-profile.js";
import { putAroundNotices } from "./replayed-notices.js";
import { deriveModes } from "./session-modes.js";
import { isFinalStatus, type TranscriptItem } from "./state.js";

/** Whether this update is history: replayed by `session/load`, or the tail of a replay after its response. */
function isHistory(d: Draft, n: SessionNotification, history: boolean | undefined): boolean {
  if (d.s.replayTail && !d.s.replaying) {
    // An update for a call the replay left open is the live work going on: the replay is over.
    const u = n.update as { sessionUpdate?: string; toolCallId?: string };
    const tool = u.sessionUpdate === "tool_call_update" && u.toolCallId ? d.tool(u.toolCallId) : undefined;
    if (tool && !isFinalStatus(tool)) endReplayTail(d);
  }
  return history === true || d.s.replaying || (d.s.replayTail === true && d.s.pendingPrompts.length === 0);
}

/**
 * The turn that receives new content: the newest prompt in flight, else the open agent-initiated or
 * history turn, else a new turn the agent started on its own.
 */
export function currentTurn(d: Draft, history: boolean): string {
  const pending = d.s.pendingPrompts;
  if (pending.length) return pending[pending.length - 1];
  const cur = d.turn(d.s.currentTurnId);
  if (history) {
    if (cur && cur.origin === "history") return cur.id;
    endReplayedTurn(d);
    return d.openTurn(d.nextId("h"), "history", true);
  }
  if (cur && cur.origin === "agent" && cur.endedAt === undefined) return cur.id;
  beginAgentWork(d);
  return d.openTurn(d.nextId("a"), "agent", false);
}

function appendChunk(
  d: Draft,
  profile: AgentProfile,
  kind: "agent" | "thought" | "user",
  block: ContentBlock,
  messageId: string | null | undefined,
  history: boolean,
): void {
  let text = contentText(block);
  if (text === "") return;
  const blockBreak = d.s.blockBreak === true;
  d.s.blockBreak = false;
  const last = d.s.items[d.s.items.length - 1];
  const sameMessage = (item: TranscriptItem) =>
    item.kind === kind && (!messageId || !("messageId" in item) || !item.messageId || item.messageId === messageId);
  // A user chunk with no prompt in flight can only be replayed history (gemini replays after its load response).
  const hist = kind === "user" && d.s.pendingPrompts.length === 0 ? true : history;
  const opensTurn = kind === "user" && hist && !(last && last.kind === "user");
  if (opensTurn) endReplayedTurn(d);
  const turnId = opensTurn ? d.openTurn(d.nextId("h"), "history", true) : currentTurn(d, hist);
  const internal = kind === "user" && profile.isInternalUserText(text);
  if (internal && profile.readInternal) {
    text = profile.readInternal(text);
    if (text === "") return;
  }
  // A chunk is put in parts when a replayed question notice goes inside it: a part after one follows the notice.
  let first = true;
  const put = (text: string): void => {
    const prev = first ? last : d.s.items[d.s.items.length - 1];
    first = false;
    // Replayed internal context is its own message, never glued to the prompt.
    const separate = kind === "user" && prev?.kind === "user" && (prev.internal === true || internal);
    if (prev && !separate && !blockBreak && sameMessage(prev) && prev.turnId === turnId) {
      d.appendText(prev.id, text);
      return;
    }
    // Agents open blocks with filler (blank lines): not content.
    if (text.trim() === "") return;
    text = text.replace(/^\n+/, "");
    const id = d.nextId("i");
    if (kind === "user") {
      d.addItem({ kind, id, turnId, text, blocks: [block], history: hist, messageId, internal });
    } else {
      d.addItem({ kind, id, turnId, text, history: hist, messageId });
    }
  };
  if (kind === "agent" && hist) putAroundNotices(d, turnId, text, put);
  else put(text);
}

/** The plan shown in this turn (the one with `planId`, for identified plans) is replaced; else a new one is shown. */
function applyPlan(d: Draft, entries: PlanEntry[], history: boolean, planId?: string): void {
  d.s.plan = entries;
  const turnId = currentTurn(d, history);
  const existing = [...d.s.items].reverse().find((i) => i.kind === "plan" && i.turnId === turnId && i.planId === planId);
  if (existing) d.updateItem(existing.id, (i) => ({ ...i, entries }) as TranscriptItem);
  else d.addItem({ kind: "plan", id: d.nextId("i"), turnId, entries, history, ...(planId !== undefined ? { planId } : {}) });
}

/** Unstable `plan_update` / `plan_removed` (identified plans); false for any other kind. */
function applyIdentifiedPlan(d: Draft, u: SessionUpdate, history: boolean): boolean {
  const kind = (u as { sessionUpdate?: unknown }).sessionUpdate;
  if (kind === "plan_update") {
    const update = u as unknown as PlanUpdate;
    if (!update.plan || typeof update.plan !== "object") return false;
    applyPlan(d, planUpdateEntries(update), history, planIdOf(update));
    return true;
  }
  if (kind === "plan_removed") {
    const planId = planIdOf(u as unknown as PlanRemoved);
    const shown = [...d.s.items].reverse().find((i) => i.kind === "plan" && i.planId === planId);
    if (shown && shown.kind === "plan" && shown.entries === d.s.plan) d.s.plan = undefined;
    if (!history)
      d.addItem({ kind: "notice", id: d.nextId("i"), turnId: d.s.currentTurnId, level: "info", text: "the agent removed its plan" });
    return true;
  }
  return false;
}

function normalizeContext(d: Draft): NormalizeContext {
  return { tool: (id) => d.tool(id), background: d.s.background, replayTail: d.s.replayTail === true };
}

/** Applies one protocol update, already normalized by the agent's profile. */
function applyOne(d: Draft, profile: AgentProfile, u: SessionUpdate, history: boolean): void {
  switch (u.sessionUpdate) {
    case "agent_message_chunk":
      appendChunk(d, profile, "agent", u.content, u.messageId, history);
      return;
    case "agent_thought_chunk":
      appendChunk(d, profile, "thought", u.content, u.messageId, history);
      return;
    case "user_message_chunk":
      appendChunk(d, profile, "user", u.content, u.messageId, history);
      return;
    case "tool_call":
    case "tool_call_update": {
      if (refusedWithoutId(d, u)) return;
      const before = d.tool(u.toolCallId);
      let tool = upsertToolCall(d, u, () => currentTurn(d, history), history);
      if (history) tool = fillFromReplay(d, tool.toolCallId) ?? fillFromTail(d, tool.toolCallId) ?? tool;
      // Announced after all: the agent owns it now, and will close it.
      if (tool.askedOnly) d.setTool((tool = { ...tool, askedOnly: undefined }));
      // Work ending with no prompt in flight is background work ending: see the quiet period.
      if (!history && d.s.pendingPrompts.length === 0 && isFinalStatus(tool) && !(before && isFinalStatus(before)))
        d.s.backgroundEndedAt = d.at;
      return;
    }
    case "plan":
      applyPlan(d, u.entries, history);
      return;
    case "available_commands_update":
      d.s.commands = u.availableCommands ?? [];
      return;
    case "current_mode_update":
      d.s.modes = d.s.modes ? { ...d.s.modes, currentModeId: u.currentModeId } : { currentModeId: u.currentModeId, availableModes: [] };
      return;
    case "config_option_update":
      d.s.configOptions = u.configOptions ?? [];
      deriveModes(d.s);
      return;
    case "session_info_update":
      if (typeof u.title === "string" && u.title) d.s.title = u.title;
      return;
    case "usage_update":
      d.s.usage = { used: u.used, size: u.size, cost: u.cost ?? undefined };
      return;
    case "notice": {
      const text = u.description ? `${u.title}: ${u.description}` : u.title;
      const level = u.severity === "error" ? "error" : u.severity === "warning" ? "warning" : "info";
      d.addItem({ kind: "notice", id: d.nextId("i"), turnId: d.s.currentTurnId, level, text });
      return;
    }
    case "compaction_update":
      d.addItem({
        kind: "notice",
        id: d.nextId("i"),
        turnId: d.s.currentTurnId,
        level: "info",
        text: `context compaction ${u.status}${u.error ? `: ${u.error}` : ""}`,
      });
      return;
    case "compaction_summary_chunk":
      appendChunk(d, profile, "thought", u.content, undefined, history);
      return;
    default: {
      if (applyIdentifiedPlan(d, u, history)) return;
      if (applySubagentLifecycle(d, u, history, () => currentTurn(d, history))) return;
      const kindRaw = (u as { sessionUpdate?: unknown } | undefined)?.sessionUpdate;
      const kind = typeof kindRaw === "string" ? kindRaw : "(no sessionUpdate)";
      d.addItem({ kind: "unknown", id: d.nextId("i"), turnId: d.s.currentTurnId, updateKind: kind, raw: u, history });
    }
  }
}

/**
 * Applies one `session/update` notification: the agent's profile reads it first (filler, mode text,
 * turn markers, background tasks), then each resulting update is folded. Unknown kinds become
 * visible "unknown" items.
 */
export function applyUpdate(d: Draft, n: SessionNotification, historyFlag: boolean | undefined): void {
  const history = isHistory(d, n, historyFlag);
  const profile = profileOf(d.s);
  const subagent = subagentSessionCall(d, n.sessionId);
  if (subagent) {
    if (!history) d.s.lastAgentActivityAt = d.at;
    applySubagentUpdate(d, subagent, n.update as SessionUpdate, history, () => currentTurn(d, history));
    return;
  }
  // The kind may be one this SDK does not know (newer protocol versions add them).
  const normalized = profile.normalize(n.update as SessionUpdate, normalizeContext(d));
  // A replay's tail after the load response counts as activity: its quiet period waits it out.
  if (!history || d.s.replayTail) d.s.lastAgentActivityAt = d.at;
  for (const item of normalized) {
    if ("signal" in item) applySignal(d, item, history);
    else applyOne(d, profile, item.update, history);
  }
}
