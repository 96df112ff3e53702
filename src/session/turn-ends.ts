import { exitTerminal } from "./apply-terminal.js";
import { Draft } from "./draft.js";
import { profileOf } from "./profiles/select-profile.js";

// How the fold moves a turn toward its end: draining, idle, and closing what the agent left open.

/** Closes the open tool calls of the given turns locally: the agent may never say so itself. */
export function closeOpenTools(d: Draft, status: "cancelled" | "interrupted", turnIds?: Set<string>): void {
  for (const tool of d.openTools()) {
    if (turnIds && !turnIds.has(tool.turnId)) continue;
    // Running on in the agent's session, reported as it goes: not conch's to close (see detachOpenTools).
    if (status === "cancelled" && tool.detached && profileOf(d.s).turns.outlivingCallsReport) continue;
    d.setTool({ ...tool, localStatus: status, endedAt: d.at, detached: undefined });
  }
}

/**
 * Calls known only from a permission request, in turns that have ended: the agent never said what
 * became of them, so they are closed `unknown` rather than waited on (a refused one is already closed).
 */
export function closeAskedOnly(d: Draft, turnIds: Set<string>): void {
  const asked = new Set(d.s.permissions.map((p) => p.toolCallId));
  for (const tool of d.openTools()) {
    if (!tool.askedOnly || !turnIds.has(tool.turnId) || asked.has(tool.toolCallId)) continue;
    d.setTool({ ...tool, localStatus: "unknown", endedAt: d.at });
  }
}

/** Stops waiting for the reports the agent owes: its turn was cancelled, or the process is gone. */
export function abandonTasks(d: Draft): void {
  for (const task of Object.values(d.s.background)) {
    if (task.reportedAt === undefined && task.abandonedAt === undefined) d.background()[task.taskId] = { ...task, abandonedAt: d.at };
  }
}

/**
 * The background tasks of a turn whose answer the agent held until that work and its report on it
 * were done (claude 0.23): they have ended, though no update said so.
 */
export function endHeldTasks(d: Draft, turnId: string): void {
  if (!profileOf(d.s).turnSignals.includes("held_response")) return;
  for (const task of Object.values(d.s.background)) {
    if (task.abandonedAt !== undefined || (task.endedAt !== undefined && task.reportedAt !== undefined)) continue;
    const tool = task.toolCallId ? d.tool(task.toolCallId) : undefined;
    if (tool && tool.turnId !== turnId) continue;
    d.background()[task.taskId] = { ...task, endedAt: task.endedAt ?? d.at, reportedAt: task.reportedAt ?? d.at };
  }
}

/**
 * A turn answered while some of its calls still run: an agent whose calls outlive their turn
 * (codex) keeps them running in its own session, where they are shown, not waited on.
 */
export function detachOpenTools(d: Draft, turnId: string, cancelled = false): void {
  const turns = profileOf(d.s).turns;
  if (!turns.callsOutliveTurn) return;
  // A cancel stops the model, not a command codex 2.x already runs: it goes on and reports its end.
  // Only commands that started (a terminal, no permission still waiting) are such.
  if (cancelled && !turns.outlivingCallsReport) return;
  const asked = new Set(d.s.permissions.map((p) => p.toolCallId));
  for (const tool of d.openTools()) {
    if (tool.turnId !== turnId || tool.detached) continue;
    const started = tool.status === "in_progress" && tool.terminalId !== undefined && tool.permission?.outcome !== "cancelled";
    if (cancelled && (!started || asked.has(tool.toolCallId))) continue;
    d.setTool({ ...tool, detached: true });
  }
  // conch is stopping the agent (a quit cancels the turn first): what is left running goes with it.
  if (d.s.agentStoppingAt !== undefined) endWithAgent(d);
}

/**
 * The agent stopped while calls that outlived their turn still ran: its process tree (and with it
 * the command) went with it, and no exit will ever be reported. They end "with the agent", not
 * "running"; their panes stop.
 */
export function endWithAgent(d: Draft): void {
  for (const tool of d.openTools()) {
    if (!tool.detached) continue;
    d.setTool({ ...tool, localStatus: "ended_with_agent", endedAt: d.at, detached: undefined });
    const term = tool.terminalId ? d.s.terminals[tool.terminalId] : undefined;
    if (term && !term.exited) exitTerminal(d, term.terminalId, null, null);
  }
}

/** Ends agent-initiated and history turns that are still open. */
export function endOpenTurns(d: Draft): void {
  // From the first open turn: a replay opens a turn per prompt, and walking them all each time was quadratic.
  const turns = d.s.turns;
  for (let i = d.s.firstOpenTurn; i < turns.length; i++) {
    const t = turns[i];
    if (t.endedAt === undefined && t.origin !== "user") d.patchTurnAt(i, { endedAt: d.at });
  }
}

/** Nothing runs any more: the session waits for the next prompt. */
export function goIdle(d: Draft): void {
  d.s.phase = "idle";
  endOpenTurns(d);
}

/** The prompt's turn answered and nothing else is in flight: the turn drains until its work is over. */
export function beginDrain(d: Draft): void {
  d.s.phase = "draining";
  d.s.drainStartedAt = d.at;
}
