import React, { useMemo } from "react";
import { Text } from "ink";
import type { SessionState, TranscriptItem } from "../../session/state.js";
import { itemRows } from "../render/item-rows.js";
import { itemViewOf } from "../render/item-view.js";
import { paint } from "../render/style.js";
import { cellWidth, truncateRow } from "../render/text.js";
import { highlightRows } from "../search/highlight-rows.js";
import { footer } from "../shell/key-bindings.js";
import { hitSnippet, type SearchField, type SearchHit } from "../search/transcript-search.js";

/** Props of the search view. */
export interface SearchViewProps {
  state: SessionState;
  query: string;
  /** Every hit, oldest first. */
  hits: SearchHit[];
  /** The hit shown, or -1. */
  selected: number;
  /** Rows the shown item is scrolled from where the hit puts it. */
  scroll: number;
  width: number;
  /** Rows the whole view may take. */
  maxRows: number;
}

/** Hits listed around the selected one. */
const LIST_ROWS = 5;

const FIELD_LABEL: Record<SearchField, string> = {
  prompt: "you",
  answer: "agent",
  thought: "thought",
  title: "tool",
  command: "command",
  output: "output",
  plan: "plan",
  notice: "notice",
};
const LABEL_WIDTH = 8;

/** The hits around the selected one that fit in `rows`, as rows: the selected one marked, its match in reverse video. */
function listRows(hits: SearchHit[], selected: number, rows: number, width: number): string[] {
  const start = Math.max(0, Math.min(selected - Math.floor(rows / 2), hits.length - rows));
  return hits.slice(start, start + rows).map((hit, i) => {
    const chosen = start + i === selected;
    const label = FIELD_LABEL[hit.field].padEnd(LABEL_WIDTH);
    const room = Math.max(10, width - LABEL_WIDTH - 2);
    const { before, match, after } = hitSnippet(hit, room);
    const lead = chosen ? paint("▸ ", { role: "accent", bold: true }) : "  ";
    const text =
      paint(before, { dim: !chosen }) +
      paint(match, chosen ? { inverse: true, bold: true } : { underline: true }) +
      paint(after, { dim: !chosen });
    return truncateRow(lead + paint(label, { role: chosen ? "accent" : "muted" }) + text, width);
  });
}

/** The first line: the query with a cursor, how many hits, and the keys. */
function headerRow(query: string, hits: number, selected: number, width: number): string {
  const count =
    query === "" ? "" : hits === 0 ? paint("  no match", { role: "warning" }) : paint(`  ${selected + 1}/${hits}`, { dim: true });
  const keys = paint(`  ${footer(["search-older", "search-newer", "scroll-search", "leave-search"])}`, { dim: true });
  const row = `${paint("search ›", { role: "accent", bold: true })} ${query}${paint(" ", { inverse: true })}${count}`;
  return truncateRow(cellWidth(row) + cellWidth(keys) <= width ? row + keys : row, width);
}

/**
 * The search view, drawn in the live area above the input (the printed transcript cannot be
 * scrolled by conch, so a hit is shown here rather than jumped to): the query, the hits around
 * the selected one, and the item the hit is in, drawn in full as the transcript draws it, with
 * every occurrence marked and the hit's in reverse video.
 */
export function SearchView({ state, query, hits, selected, scroll, width, maxRows }: SearchViewProps): React.ReactElement {
  const hit = selected >= 0 ? hits[selected] : undefined;
  const item: TranscriptItem | undefined = hit ? state.items[hit.itemIndex] : undefined;
  const view = item ? itemViewOf(state, item) : undefined;
  // The item in full (clipped output and collapsed thoughts may hide the very hit), without the raw JSON search does not look at.
  const drawn = useMemo(() => (view ? itemRows(view, { width, expanded: true, rawJson: false }) : []), [view, width]);
  const rows = [headerRow(query, hits.length, selected, width)];
  if (query === "") {
    rows.push(paint("  type to search prompts, answers, thoughts, tool titles, commands and their output", { dim: true }));
    return <Text>{rows.join("\n")}</Text>;
  }
  if (!hit || !item) return <Text>{rows.join("\n")}</Text>;
  const listed = listRows(hits, selected, Math.min(LIST_ROWS, hits.length), width);
  rows.push(...listed, paint("─".repeat(width), { dim: true }));
  const room = Math.max(3, maxRows - rows.length);
  const { rows: marked, matchRows } = highlightRows(drawn, query, hit.occurrence);
  // The hit's row a third of the way down, moved by the scroll, kept within the item.
  const target = matchRows[Math.min(hit.occurrence, matchRows.length - 1)] ?? 0;
  const top = Math.max(0, Math.min(target - Math.floor(room / 3) + scroll, marked.length - room));
  const window = marked.slice(top, top + room);
  if (top > 0) window[0] = paint(`⋮ ${top} row${top === 1 ? "" : "s"} above`, { dim: true });
  const below = marked.length - top - room;
  if (below > 0) window[window.length - 1] = paint(`⋮ ${below} row${below === 1 ? "" : "s"} below`, { dim: true });
  rows.push(...window);
  return <Text>{rows.join("\n")}</Text>;
}
