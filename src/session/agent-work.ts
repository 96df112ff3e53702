import type { Draft } from "./draft.js";

/** The agent starts work with no prompt in flight: the session drains until that work is over. */
export function beginAgentWork(d: Draft): void {
  if (d.s.phase !== "idle") return;
  d.s.phase = "draining";
  d.s.drainStartedAt = d.at;
}

/** Ends the turns the agent runs on its own that are still open. */
export function endAgentTurns(d: Draft): void {
  const turns = d.s.turns;
  for (let i = d.s.firstOpenTurn; i < turns.length; i++)
    if (turns[i].endedAt === undefined && turns[i].origin === "agent") d.patchTurnAt(i, { endedAt: d.at });
}
