import type { SessionState, Turn, TurnOrigin } from "./state.js";

// Finding turns without walking every turn of a long session.

/**
 * Where the turn with this id is in `turns`, or -1: searched from the newest, as the turns looked up
 * (the current one, the prompts in flight) are the newest. Turn ids are unique (counted by the state or the driver).
 */
export function turnPosition(turns: readonly Turn[], id: string): number {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i].id === id) return i;
  return -1;
}

/** The turn with this id. */
export function turnById(state: SessionState, id: string): Turn | undefined {
  const idx = turnPosition(state.turns, id);
  return idx >= 0 ? state.turns[idx] : undefined;
}

/** The oldest turn not ended yet that started as `origin`. */
export function openTurnOf(state: SessionState, origin: TurnOrigin): Turn | undefined {
  const { turns } = state;
  for (let i = state.firstOpenTurn; i < turns.length; i++)
    if (turns[i].endedAt === undefined && turns[i].origin === origin) return turns[i];
  return undefined;
}
