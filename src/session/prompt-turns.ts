import type { SessionState, TranscriptItem } from "./state.js";
import type { PromptTurn } from "./transcript-item.js";

/** Each prompt's turn in a session folded from conch's own log, by turn id, in order. */
export function promptTurnsOf(local: SessionState): Map<string, PromptTurn> {
  const seen = new Map<string, number>();
  const out = new Map<string, PromptTurn>();
  for (const item of local.items) {
    if (item.kind !== "user" || item.internal || item.steered || out.has(item.turnId)) continue;
    const prompt = item.text.trim();
    const nth = seen.get(prompt) ?? 0;
    seen.set(prompt, nth + 1);
    out.set(item.turnId, { prompt, nth });
  }
  return out;
}

/** The prompt that opened a turn: its first user message that is not agent context. */
export function promptOf(items: readonly TranscriptItem[], turnId: string): string | undefined {
  let found: string | undefined;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.turnId !== turnId) break;
    if (item.kind === "user" && !item.internal) found = item.text.trim();
  }
  return found;
}
