import type { SessionUpdate, ToolCallStatus } from "@agentclientprotocol/sdk";

/**
 * Updates that describe the session's current settings or meter, not its
 * transcript. Real agents leave them out of a `session/load` replay: the load
 * response carries modes and config, and usage restarts.
 */
const NOT_TRANSCRIPT = new Set<string>(["available_commands_update", "current_mode_update", "config_option_update", "usage_update"]);

type TextChunk = Extract<SessionUpdate, { sessionUpdate: "agent_message_chunk" | "agent_thought_chunk" }>;

/**
 * Appends one sent update to a session's transcript. Consecutive chunks of the
 * same message are merged into one, so a replay sends whole messages (as
 * claude-agent-acp and codex-acp do) and a `flood` does not bloat the file.
 */
export function appendToHistory(history: SessionUpdate[], update: SessionUpdate): void {
  if (NOT_TRANSCRIPT.has(update.sessionUpdate)) return;
  const last = history[history.length - 1];
  if (last && isSameMessage(last, update)) {
    history[history.length - 1] = { ...last, content: { type: "text", text: last.content.text + textOf(update) } };
    return;
  }
  history.push(update);
}

function isSameMessage(last: SessionUpdate, next: SessionUpdate): last is TextChunk & { content: { type: "text" } } {
  return (
    isTextChunk(last) &&
    isTextChunk(next) &&
    last.sessionUpdate === next.sessionUpdate &&
    last.content.type === "text" &&
    next.content.type === "text" &&
    typeof last.messageId === "string" &&
    last.messageId === next.messageId
  );
}

function isTextChunk(update: SessionUpdate): update is TextChunk {
  return update.sessionUpdate === "agent_message_chunk" || update.sessionUpdate === "agent_thought_chunk";
}

function textOf(update: SessionUpdate): string {
  return isTextChunk(update) && update.content.type === "text" ? update.content.text : "";
}

/** A tool call the transcript leaves open: its last known status is not final. */
export interface OpenToolCall {
  toolCallId: string;
  /** Set when the call shows an agent-owned terminal (`_meta.terminal_info`). */
  terminalId?: string;
}

/** Lists the tool calls whose last status in `history` is neither `completed` nor `failed`. */
export function openToolCalls(history: readonly SessionUpdate[]): OpenToolCall[] {
  const calls = new Map<string, { status: ToolCallStatus | undefined; terminalId?: string }>();
  for (const update of history) {
    if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") continue;
    const known = calls.get(update.toolCallId) ?? { status: undefined };
    if (update.status) known.status = update.status;
    const terminalId = terminalIdOf(update._meta);
    if (terminalId) known.terminalId = terminalId;
    calls.set(update.toolCallId, known);
  }
  const open: OpenToolCall[] = [];
  for (const [toolCallId, call] of calls) {
    if (call.status === "completed" || call.status === "failed") continue;
    open.push(call.terminalId ? { toolCallId, terminalId: call.terminalId } : { toolCallId });
  }
  return open;
}

function terminalIdOf(meta: { [key: string]: unknown } | null | undefined): string | undefined {
  const info = meta?.terminal_info;
  if (typeof info !== "object" || info === null || !("terminal_id" in info)) return undefined;
  return typeof info.terminal_id === "string" ? info.terminal_id : undefined;
}
