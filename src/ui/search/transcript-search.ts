import { displayOf } from "../../session/profiles/display-of.js";
import type { SessionState, ToolCallView, TranscriptItem } from "../../session/state.js";
import { safeLine, safeOutput, safeText } from "../../text/terminal-safe.js";

/** Which text of an item a hit is in. */
export type SearchField = "prompt" | "answer" | "thought" | "title" | "command" | "output" | "plan" | "notice";

/** One searchable text of an item. */
export interface SearchText {
  field: SearchField;
  text: string;
  /** The text in lower case, made once: a search runs again on every frame while the session streams. */
  lower: string;
}

const searchText = (field: SearchField, text: string): SearchText => ({ field, text, lower: text.toLowerCase() });

/** One place the query occurs. */
export interface SearchHit {
  itemId: string;
  /** Position of the item in `state.items`. */
  itemIndex: number;
  field: SearchField;
  /** The text it was found in, and where. */
  text: string;
  start: number;
  length: number;
  /** Which occurrence of the query in this item it is, counting from 0 over the item's texts in order. */
  occurrence: number;
}

/** A hit's identity, stable while more of the session arrives. */
export function hitKey(hit: Pick<SearchHit, "itemId" | "occurrence">): string {
  return `${hit.itemId}#${hit.occurrence}`;
}

const SGR = /\u001b\[[0-9;:]*m/g;
const plainOutput = (text: string) => safeOutput(text).replace(SGR, "");

const toolCache = new WeakMap<ToolCallView, { terminals: SessionState["terminals"]; texts: SearchText[] }>();

/** What a tool call shows that a person would search for: title, command, where it works, its words and output. */
function toolTexts(state: SessionState, tool: ToolCallView): SearchText[] {
  const hit = toolCache.get(tool);
  if (hit && hit.terminals === state.terminals) return hit.texts;
  const display = displayOf(state, tool);
  // In the order the card draws them, so the nth occurrence here is the nth one on the card.
  const texts: SearchText[] = [searchText("title", safeLine(display.title))];
  for (const l of tool.locations) texts.push(searchText("title", safeLine(l.path)));
  if (display.command !== undefined && display.command.trim() !== display.title.trim())
    texts.push(searchText("command", safeText(display.command)));
  for (const block of display.blocks) {
    if (block.type === "prose") texts.push(searchText("output", safeText(block.text)));
    else if (block.type === "output") texts.push(searchText("output", plainOutput(block.text)));
    else if (block.type === "diff")
      texts.push(searchText("output", [block.path, block.oldText ?? "", block.newText].map(safeText).join("\n")));
    else if (block.type === "terminal") {
      const tail = state.terminals[block.terminalId]?.outputTail || block.output;
      if (tail) texts.push(searchText("output", plainOutput(tail)));
    }
  }
  toolCache.set(tool, { terminals: state.terminals, texts });
  return texts;
}

const itemCache = new WeakMap<TranscriptItem, SearchText[]>();

function ownTexts(item: TranscriptItem): SearchText[] {
  switch (item.kind) {
    case "user":
      return [searchText("prompt", safeText(item.text))];
    case "agent":
      return [searchText("answer", safeText(item.text))];
    case "thought":
      return [searchText("thought", safeText(item.text))];
    case "plan":
      return [searchText("plan", item.entries.map((e) => safeLine(e.content)).join("\n"))];
    case "notice":
      return [searchText("notice", safeText(item.text))];
    case "shell":
      return [searchText("command", safeLine(item.command))];
    default:
      return [];
  }
}

/** The texts of one transcript item that search looks at; dividers and unknown updates have none. */
export function searchableTexts(state: SessionState, item: TranscriptItem): SearchText[] {
  if (item.kind === "tool") {
    const tool = state.toolCalls[item.toolCallId];
    return tool ? toolTexts(state, tool) : [];
  }
  // Items are replaced, never changed, when their text grows: one made per version of the item.
  let texts = itemCache.get(item);
  if (!texts) itemCache.set(item, (texts = ownTexts(item)));
  return texts;
}

/** Smart case, as in less and vim: a query in lower case matches any case; one with a capital matches exactly. */
export function caseSensitive(query: string): boolean {
  return query !== query.toLowerCase();
}

/** Start offsets of `query` in `text` (not overlapping); `lower` is the text in lower case, when already made. */
export function occurrences(text: string, query: string, exact = caseSensitive(query), lower?: string): number[] {
  if (query === "") return [];
  const haystack = exact ? text : (lower ?? text.toLowerCase());
  const needle = exact ? query : query.toLowerCase();
  const out: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

/** Most hits a search lists; past this a longer query narrows it down. */
export const MAX_HITS = 1000;

/** Every place `query` occurs in the session, in transcript order (newest last), at most `limit`. */
export function findHits(state: SessionState, query: string, limit = MAX_HITS): SearchHit[] {
  if (query.trim() === "") return [];
  const exact = caseSensitive(query);
  const hits: SearchHit[] = [];
  // Newest first, so a long session keeps its latest hits when there are too many.
  for (let i = state.items.length - 1; i >= 0 && hits.length < limit; i--) {
    const item = state.items[i];
    const own: SearchHit[] = [];
    for (const { field, text, lower } of searchableTexts(state, item)) {
      for (const start of occurrences(text, query, exact, lower))
        own.push({ itemId: item.id, itemIndex: i, field, text, start, length: query.length, occurrence: own.length });
    }
    hits.push(...own.reverse());
  }
  return hits.slice(0, limit).reverse();
}

/** One line around a hit: some text before it, the match, and what follows, with the line's breaks flattened. */
export function hitSnippet(hit: SearchHit, room: number): { before: string; match: string; after: string } {
  const flat = (t: string) => t.replace(/\s+/g, " ");
  const match = flat(hit.text.slice(hit.start, hit.start + hit.length));
  const space = Math.max(0, room - match.length);
  let before = flat(hit.text.slice(0, hit.start)).trimStart();
  let after = flat(hit.text.slice(hit.start + hit.length)).trimEnd();
  // A third of the room before the match, the rest after it (or whatever either side leaves).
  const beforeRoom = Math.min(before.length, Math.max(Math.floor(space / 3), space - after.length));
  if (before.length > beforeRoom) before = beforeRoom > 1 ? `…${before.slice(before.length - beforeRoom + 1)}` : "";
  const afterRoom = space - before.length;
  if (after.length > afterRoom) after = afterRoom > 1 ? `${after.slice(0, afterRoom - 1)}…` : "";
  return { before, match, after };
}
