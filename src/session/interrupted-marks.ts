import type { Draft } from "./draft.js";
import { promptOf, promptTurnsOf } from "./prompt-turns.js";
import { placeLeftoverNotices } from "./replayed-notices.js";
import type { SessionState, TranscriptItem } from "./state.js";
import type { InterruptedPrompt } from "./transcript-item.js";

/** Marks the end of a turn the person interrupted: an answer cut off by Esc must not look finished. */
export function addInterruptedMark(d: Draft, turnId: string, history: boolean): void {
  d.addItem({ kind: "interrupted", id: d.nextId("i"), turnId, history });
}

/** What the agent said or did in a turn, as opposed to the turn's divider, the person's messages and commands. */
function isReply(item: TranscriptItem): boolean {
  if (item.kind === "agent" || item.kind === "thought") return item.text.trim() !== "";
  return item.kind !== "turn" && item.kind !== "user" && item.kind !== "shell";
}

/**
 * The agent answered a prompt with nothing (claude-agent-acp 0.23 does so for the prompt after an
 * Esc, and streams the answer in the next turn): a line says so, or the bare prompt reads as if
 * conch lost the answer.
 */
export function markEmptyReply(d: Draft, turnId: string): void {
  const items = d.s.items;
  // Back to the turn's divider: only this turn's items, whatever else came in between.
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.turnId !== turnId) continue;
    if (item.kind === "turn") break;
    if (isReply(item)) return;
  }
  d.addItem({ kind: "no_reply", id: d.nextId("i"), turnId, history: false });
}

/** The prompts of the interrupted turns in a session folded from conch's own log, in order. */
export function interruptedPromptsOf(local: SessionState): InterruptedPrompt[] {
  const cut = new Set(local.turns.filter((t) => t.origin === "user" && t.stopReason === "cancelled").map((t) => t.id));
  return [...promptTurnsOf(local)].flatMap(([turnId, turn]) => (cut.has(turnId) ? [turn] : []));
}

/**
 * A replayed turn is over (the next one opens, or the replay ends): when conch's log saw it
 * interrupted, it ends with the same mark it had live, after any question notice its text never
 * reached. Turns are matched by prompt text and order.
 */
export function endReplayedTurn(d: Draft): void {
  const marks = d.s.replayMarks;
  const turn = d.turn(d.s.currentTurnId);
  if (!marks || !turn || turn.origin !== "history") return;
  const prompt = promptOf(d.s.items, turn.id);
  if (prompt === undefined) return;
  placeLeftoverNotices(d, turn.id);
  const nth = marks.seen[prompt] ?? 0;
  d.s.replayMarks = { ...d.s.replayMarks!, seen: { ...marks.seen, [prompt]: nth + 1 } };
  if (marks.interrupted.some((p) => p.prompt === prompt && p.nth === nth)) addInterruptedMark(d, turn.id, true);
}
