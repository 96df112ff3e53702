import type { Draft } from "./draft.js";
import { profileOf } from "./profiles/select-profile.js";

// How the fold moves a turn toward its end: draining, idle, and closing what the agent left open.

/** Closes the open tool calls of the given turns locally: the agent may never say so itself. */
export function closeOpenTools(d: Draft, status: "cancelled" | "interrupted", turnIds?: Set<string>): void {
  for (const tool of d.openTools()) {
    if (turnIds && !turnIds.has(tool.turnId)) continue;
    d.setTool({ ...tool, localStatus: status, endedAt: d.at, detached: undefined });
  }
}

/** Stops waiting for the reports the agent owes: its turn was cancelled, or the process is gone. */
export function abandonTasks(d: Draft): void {
  for (const task of Object.values(d.s.background)) {
    if (task.reportedAt === undefined && task.abandonedAt === undefined) d.background()[task.taskId] = { ...task, abandonedAt: d.at };
  }
}

/**
 * A turn answered while some of its calls still run: an agent whose calls outlive their turn
 * (codex) keeps them running in its own session, where they are shown, not waited on.
 */
export function detachOpenTools(d: Draft, turnId: string): void {
  if (!profileOf(d.s).turns.callsOutliveTurn) return;
  for (const tool of d.openTools()) {
    if (tool.turnId === turnId && !tool.detached) d.setTool({ ...tool, detached: true });
  }
}

/** Ends agent-initiated and history turns that are still open. */
export function endOpenTurns(d: Draft): void {
  // By index: a replay opens a turn per prompt, and finding each by id made this quadratic.
  const turns = d.s.turns;
  for (let i = 0; i < turns.length; i++) {
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
