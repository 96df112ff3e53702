import type { OpenWorkKind } from "./events.js";
import { profileOf } from "./profiles/select-profile.js";
import { isFinalStatus, type SessionState } from "./state.js";
import { openTurnOf } from "./turn-lookup.js";

/** One thing a turn is still waiting on. */
export interface OpenWorkItem {
  kind: OpenWorkKind;
  id: string;
  /** What to show: the command, the tool call's title, the task's name. */
  label: string;
  /** When it last showed a sign of life (event clock). */
  since: number;
  /** The tool call it belongs to, if any. */
  toolCallId?: string;
  /** A person's decision never stalls; everything else is given up on after the stall timeout. */
  stallable: boolean;
  /** For a report: the work itself has ended, only the agent's turn about it is missing. */
  ended?: boolean;
}

/** Whether the agent reports on its background tasks in turns of its own, closed by a marker. */
export function reportsBack(state: SessionState): boolean {
  const markers = profileOf(state).turns.markers;
  return markers === "always" || (markers === "observed" && state.turnMarkers === true);
}

/** The background tasks whose report the agent still owes. */
function awaitedTasks(state: SessionState) {
  if (!reportsBack(state)) return [];
  return Object.values(state.background).filter((t) => t.reportedAt === undefined && t.abandonedAt === undefined);
}

/**
 * What keeps a turn open after its prompt answered: permissions and questions, tool calls not in a
 * final status, terminals with no exit, the reports an agent owes on its background tasks, a turn
 * it runs on its own, and its own "running" state.
 */
export function openWork(state: SessionState): OpenWorkItem[] {
  const out: OpenWorkItem[] = [];
  for (const p of state.permissions) {
    out.push({ kind: "permission", id: p.key, label: p.request.toolCall.title ?? p.toolCallId, since: p.askedAt, stallable: false });
  }
  for (const q of state.questions)
    out.push({ kind: "permission", id: q.key, label: q.request.message, since: q.askedAt, stallable: false });
  // A call waiting on a person is that person's decision, listed above; it never stalls.
  const asked = new Set(state.permissions.map((p) => p.toolCallId));
  for (const id of state.openToolIds) {
    const tool = state.toolCalls[id];
    if (tool.detached || asked.has(tool.toolCallId)) continue;
    out.push({
      kind: "tool",
      id: tool.toolCallId,
      label: tool.title || tool.toolCallId,
      since: tool.lastAt ?? tool.startedAt,
      toolCallId: tool.toolCallId,
      stallable: true,
    });
  }
  const tasks = awaitedTasks(state);
  const taskCalls = new Set(tasks.map((t) => t.toolCallId));
  for (const task of tasks) {
    const tool = task.toolCallId ? state.toolCalls[task.toolCallId] : undefined;
    const since = Math.max(task.startedAt, task.endedAt ?? 0, tool?.lastAt ?? 0);
    out.push({
      kind: "report",
      id: task.taskId,
      label: task.label,
      since,
      toolCallId: task.toolCallId,
      stallable: true,
      ended: task.endedAt !== undefined,
    });
  }
  for (const term of Object.values(state.terminals)) {
    // The user's own command is theirs: it holds no turn of the agent's.
    if (term.exited || term.by === "user") continue;
    const tool = term.toolCallId ? state.toolCalls[term.toolCallId] : undefined;
    if (tool?.localStatus || tool?.detached) continue;
    // A tool call or a task already listed for this terminal says the same thing once.
    if (tool && !isFinalStatus(tool)) continue;
    if (tool && taskCalls.has(tool.toolCallId)) continue;
    // Replayed history: a finished call's pane that never got an exit is not running now.
    if (term.history && (!tool || isFinalStatus(tool))) continue;
    out.push({
      kind: "terminal",
      id: term.terminalId,
      label: term.command ?? tool?.title ?? term.terminalId,
      since: term.lastAt ?? tool?.lastAt ?? 0,
      toolCallId: tool?.toolCallId,
      stallable: true,
    });
  }
  if (state.pendingPrompts.length === 0 && reportsBack(state)) {
    const own = openTurnOf(state, "agent");
    if (own) out.push({ kind: "agent_turn", id: own.id, label: "its own turn", since: state.lastAgentActivityAt, stallable: true });
  }
  if (state.agentState === "running" || state.agentState === "requires_action" || (state.agentBackground ?? 0) > 0) {
    const label =
      state.agentState === "idle" ? `${state.agentBackground} background task${state.agentBackground === 1 ? "" : "s"}` : state.agentState!;
    // Waiting on a person's answer is that person's decision, listed above: it never stalls.
    const asking = state.agentState === "requires_action" && state.permissions.length + state.questions.length > 0;
    out.push({ kind: "agent_state", id: "agent", label, since: state.lastAgentActivityAt, stallable: !asking });
  }
  return out;
}

/** A one-line summary of open work, e.g. "waiting for Claude's report on `sleep 3; echo done`". */
export function describeOpenWork(items: OpenWorkItem[], agent = "the agent"): string {
  if (items.length === 0) return "";
  const parts: string[] = [];
  const perms = items.filter((i) => i.kind === "permission").length;
  if (perms) parts.push(`${perms} permission${perms > 1 ? "s" : ""} waiting`);
  for (const r of items.filter((i) => i.kind === "report")) {
    parts.push(
      r.ended
        ? `waiting for ${agent}'s report on \`${r.label}\``
        : `\`${r.label}\` running in the background (${agent} reports back when it ends)`,
    );
  }
  if (items.some((i) => i.kind === "agent_turn")) parts.push(`${agent} is working on its own`);
  const state = items.find((i) => i.kind === "agent_state");
  if (state)
    parts.push(
      state.label === "running"
        ? `${agent} is working`
        : state.label === "requires_action"
          ? `${agent} waits for you`
          : `${agent} reports ${state.label} running`,
    );
  const running = items.filter((i) => i.kind === "tool" || i.kind === "terminal");
  if (running.length) {
    const labels = running
      .slice(0, 2)
      .map((i) => i.label)
      .join(", ");
    const more = running.length > 2 ? ` (+${running.length - 2} more)` : "";
    parts.push(`${running.length} background ${running.length > 1 ? "tasks" : "task"} running: ${labels}${more}`);
  }
  return parts.join("; ");
}
