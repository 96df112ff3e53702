import type { SessionState } from "../../session/state.js";
import type { Task } from "../../session/tasks.js";
import { displayOf } from "../../session/profiles/display-of.js";
import { hitKey, searchableTexts } from "./transcript-search.js";

/** Most characters of a card's first line searched for: enough to name it, short enough to read in the query. */
const QUERY_CHARS = 60;

/** The transcript item that is a task's card: its tool call, the call whose output is its terminal, or the user's `!cmd`. */
function cardItem(state: SessionState, task: Task) {
  const byCall = task.toolCallId;
  const byTerminal = task.terminalId;
  if (byCall) {
    const item = state.items.find((i) => i.kind === "tool" && i.toolCallId === byCall);
    if (item) return item;
  }
  if (!byTerminal) return undefined;
  return state.items.find(
    (i) =>
      (i.kind === "shell" && i.terminalId === byTerminal) ||
      (i.kind === "tool" &&
        state.toolCalls[i.toolCallId] !== undefined &&
        displayOf(state, state.toolCalls[i.toolCallId]).blocks.some((b) => b.type === "terminal" && b.terminalId === byTerminal)),
  );
}

/**
 * How the search view shows a task's card: a query made of the card's first line and the hit at its
 * start. The scrollback cannot be scrolled from here, so the card is drawn where the search draws
 * its hits. Undefined when the task has no card (a process no call accounts for).
 */
export function taskCardSearch(state: SessionState, task: Task): { query: string; selected: string } | undefined {
  const item = cardItem(state, task);
  const first = item ? searchableTexts(state, item)[0] : undefined;
  const query = first?.text.split("\n")[0].trim().slice(0, QUERY_CHARS);
  if (!item || !query) return undefined;
  return { query, selected: hitKey({ itemId: item.id, occurrence: 0 }) };
}
