import { isFinalStatus, type SessionState } from "./state.js";

/** One thing a turn is still waiting on. */
export interface OpenWorkItem {
  kind: "tool" | "terminal" | "permission";
  id: string;
  /** What to show: the command or the tool call's title. */
  label: string;
  /** When it last showed a sign of life (event clock). */
  since: number;
  /** The tool call to report stalled when it stays silent (for a terminal: the call it belongs to). */
  toolCallId?: string;
}

/**
 * What keeps a turn open after its prompt answered: tool calls not in a final status, terminals
 * with no exit (unless their tool call was closed locally), and permissions still waiting.
 */
export function openWork(state: SessionState): OpenWorkItem[] {
  const out: OpenWorkItem[] = [];
  for (const p of state.permissions) {
    out.push({ kind: "permission", id: p.key, label: p.request.toolCall.title ?? p.toolCallId, since: p.askedAt });
  }
  for (const q of state.questions) out.push({ kind: "permission", id: q.key, label: q.request.message, since: q.askedAt });
  for (const tool of Object.values(state.toolCalls)) {
    if (isFinalStatus(tool)) continue;
    out.push({ kind: "tool", id: tool.toolCallId, label: tool.title || tool.toolCallId, since: tool.lastAt ?? tool.startedAt, toolCallId: tool.toolCallId });
  }
  for (const term of Object.values(state.terminals)) {
    if (term.exited) continue;
    const tool = term.toolCallId ? state.toolCalls[term.toolCallId] : undefined;
    if (tool?.localStatus) continue;
    // A tool call already listed for this terminal says the same thing once.
    if (tool && !isFinalStatus(tool)) continue;
    // Replayed history: a finished call's pane that never got an exit is not running now.
    if (term.history && (!tool || isFinalStatus(tool))) continue;
    out.push({ kind: "terminal", id: term.terminalId, label: term.command ?? tool?.title ?? term.terminalId, since: tool?.lastAt ?? 0, toolCallId: tool?.toolCallId });
  }
  return out;
}

/** A one-line summary of open work, e.g. "1 background command running: sleep 3; echo done". */
export function describeOpenWork(items: OpenWorkItem[]): string {
  if (items.length === 0) return "";
  const perms = items.filter((i) => i.kind === "permission").length;
  const running = items.filter((i) => i.kind !== "permission");
  const parts: string[] = [];
  if (perms) parts.push(`${perms} permission${perms > 1 ? "s" : ""} waiting`);
  if (running.length) {
    const labels = running.slice(0, 2).map((i) => i.label).join(", ");
    const more = running.length > 2 ? ` (+${running.length - 2} more)` : "";
    parts.push(`${running.length} background ${running.length > 1 ? "tasks" : "task"} running: ${labels}${more}`);
  }
  return parts.join("; ");
}
