import type { Draft } from "./draft.js";

/** The agent starts work with no prompt in flight: the session drains until that work is over. */
export function beginAgentWork(d: Draft): void {
  if (d.s.phase !== "idle") return;
  d.s.phase = "draining";
  d.s.drainStartedAt = d.at;
}

/** Ends the turns the agent runs on its own that are still open. */
export function endAgentTurns(d: Draft): void {
  for (const t of d.s.turns) if (t.endedAt === undefined && t.origin === "agent") d.patchTurn(t.id, { endedAt: d.at });
}
