import type { SessionState, TranscriptItem } from "../../session/state.js";

/** The live region's rows: the newest that fit, and how many rows of the live items are above them. */
export interface LiveRows {
  rows: string[];
  hidden: number;
}

/**
 * The last `maxRows` rows of the live items, walking from the newest item back, so a frame costs
 * the rows that fit, not the whole length of a long streaming message (whose own rows are kept
 * between frames by `rowsOf`). One row is kept for the line that says what is above.
 */
export function liveRows(
  items: TranscriptItem[],
  rowsOf: (item: TranscriptItem) => string[],
  maxRows: number,
  continued?: (item: TranscriptItem) => boolean,
): LiveRows {
  const limit = Math.max(2, maxRows);
  const parts: string[][] = [];
  let count = 0;
  let total = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    const own = rowsOf(item);
    const gap = item.kind !== "user" && !continued?.(item) ? 1 : 0;
    total += own.length + gap;
    if (count < limit) {
      parts.push(gap ? ["", ...own] : own);
      count += own.length + gap;
    }
  }
  const flat = parts.reverse().flat();
  if (total <= limit) return { rows: flat, hidden: 0 };
  const keep = limit - 1;
  return { rows: flat.slice(flat.length - keep), hidden: total - keep };
}

/** What holds the transcript back, in words, for the line above the live region. */
export function heldBy(state: SessionState, items: TranscriptItem[]): string | undefined {
  const first = items[0];
  if (!first) return undefined;
  if (first.kind === "tool") {
    const tool = state.toolCalls[first.toolCallId];
    if (tool?.title) return `\`${tool.title}\``;
  }
  return undefined;
}
