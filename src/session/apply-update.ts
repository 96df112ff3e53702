import type { ContentBlock, SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import { upsertToolCall } from "./apply-tool-call.js";
import { contentText, isInternalUserText } from "./content-text.js";
import type { Draft } from "./draft.js";
import { isFinalStatus, type TranscriptItem } from "./state.js";

const MODE_UPDATE = /^\[MODE_UPDATE\]\s*(\S+)\s*$/;

/** Whether this update is history: replayed by `session/load`, or the tail of a replay after its response. */
function isHistory(d: Draft, n: SessionNotification, history: boolean | undefined): boolean {
  if (d.s.replayTail && !d.s.replaying) {
    // An update for a call the replay left open is the live work going on: the replay is over.
    const u = n.update as { sessionUpdate?: string; toolCallId?: string };
    const tool = u.sessionUpdate === "tool_call_update" && u.toolCallId ? d.tool(u.toolCallId) : undefined;
    if (tool && !isFinalStatus(tool)) d.s.replayTail = false;
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
    return d.openTurn(d.nextId("h"), "history", true);
  }
  if (cur && cur.origin === "agent" && cur.endedAt === undefined) return cur.id;
  return d.openTurn(d.nextId("a"), "agent", false);
}

function appendChunk(d: Draft, kind: "agent" | "thought" | "user", block: ContentBlock, messageId: string | null | undefined, history: boolean): void {
  let text = contentText(block);
  if (text === "") {
    d.s.blockBreak = true;
    return;
  }
  const blockBreak = d.s.blockBreak === true;
  d.s.blockBreak = false;
  const last = d.s.items[d.s.items.length - 1];
  const sameMessage = (item: TranscriptItem) =>
    item.kind === kind && (!messageId || !("messageId" in item) || !item.messageId || item.messageId === messageId);
  // A user chunk with no prompt in flight can only be replayed history (gemini replays after its load response).
  const hist = kind === "user" && d.s.pendingPrompts.length === 0 ? true : history;
  const turnId = kind === "user" && hist && !(last && last.kind === "user") ? d.openTurn(d.nextId("h"), "history", true) : currentTurn(d, hist);
  // Replayed internal context (claude's `<command-name>…`) is its own message, never glued to the prompt.
  const separate = kind === "user" && last?.kind === "user" && (last.internal === true || isInternalUserText(text));
  if (last && !separate && !blockBreak && sameMessage(last) && last.turnId === turnId) {
    d.updateItem(last.id, (item) => ({ ...item, text: (item as { text: string }).text + text }) as TranscriptItem);
    return;
  }
  // Agents open blocks with filler ("" from claude, "\n\n" from codex thoughts): not content.
  if (text.trim() === "") return;
  text = text.replace(/^\n+/, "");
  const id = d.nextId("i");
  if (kind === "user") {
    d.addItem({ kind, id, turnId, text, blocks: [block], history: hist, messageId, internal: isInternalUserText(text) });
  } else {
    d.addItem({ kind, id, turnId, text, history: hist, messageId });
  }
}

function applyPlan(d: Draft, entries: SessionUpdate & { sessionUpdate: "plan" }, history: boolean): void {
  d.s.plan = entries.entries;
  const turnId = currentTurn(d, history);
  const existing = [...d.s.items].reverse().find((i) => i.kind === "plan" && i.turnId === turnId);
  if (existing) d.updateItem(existing.id, (i) => ({ ...i, entries: entries.entries }) as TranscriptItem);
  else d.addItem({ kind: "plan", id: d.nextId("i"), turnId, entries: entries.entries, history });
}

/** Applies one `session/update` notification. Unknown kinds become visible "unknown" items. */
export function applyUpdate(d: Draft, n: SessionNotification, historyFlag: boolean | undefined): void {
  const history = isHistory(d, n, historyFlag);
  // The kind may be one this SDK does not know (newer protocol versions add them): see default.
  const u = n.update as SessionUpdate;
  if (!history) d.s.lastAgentActivityAt = d.at;
  switch (u.sessionUpdate) {
    case "agent_message_chunk": {
      const text = contentText(u.content);
      const mode = MODE_UPDATE.exec(text);
      if (mode) {
        // gemini announces mode changes as message text instead of current_mode_update.
        if (d.s.modes) d.s.modes = { ...d.s.modes, currentModeId: mode[1] };
        return;
      }
      appendChunk(d, "agent", u.content, u.messageId, history);
      return;
    }
    case "agent_thought_chunk":
      appendChunk(d, "thought", u.content, u.messageId, history);
      return;
    case "user_message_chunk":
      appendChunk(d, "user", u.content, u.messageId, history);
      return;
    case "tool_call":
    case "tool_call_update":
      upsertToolCall(d, u, () => currentTurn(d, history), history);
      return;
    case "plan":
      applyPlan(d, u, history);
      return;
    case "available_commands_update":
      d.s.commands = u.availableCommands ?? [];
      return;
    case "current_mode_update":
      d.s.modes = d.s.modes ? { ...d.s.modes, currentModeId: u.currentModeId } : { currentModeId: u.currentModeId, availableModes: [] };
      return;
    case "config_option_update":
      d.s.configOptions = u.configOptions ?? [];
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
      d.addItem({ kind: "notice", id: d.nextId("i"), turnId: d.s.currentTurnId, level: "info", text: `context compaction ${u.status}${u.error ? `: ${u.error}` : ""}` });
      return;
    case "compaction_summary_chunk":
      appendChunk(d, "thought", u.content, undefined, history);
      return;
    default: {
      const raw = (n.update as { sessionUpdate?: unknown } | undefined)?.sessionUpdate;
      const kind = typeof raw === "string" ? raw : "(no sessionUpdate)";
      d.addItem({ kind: "unknown", id: d.nextId("i"), turnId: d.s.currentTurnId, updateKind: kind, raw: n.update, history });
    }
  }
}
