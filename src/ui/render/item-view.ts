import { displayOf, terminalIdsOf } from "../../session/profiles/display-of.js";
import type { ToolDisplay } from "../../session/profiles/profile.js";
import type { SessionState, TerminalView, ToolCallView, TranscriptItem } from "../../session/state.js";
import { shellCardViewOf } from "./shell-card.js";

/** What one tool call's card shows: everything it reads from the session, and nothing more. */
export interface ToolCardView {
  call: ToolCallView;
  /** What the agent's profile makes of the call (title, command, blocks). */
  display: ToolDisplay;
  /** The session's views of the terminals the call names, by id (their output when no live screen is left). */
  terminals: Readonly<Record<string, TerminalView | undefined>>;
  /** A permission request for the call waits. */
  awaiting: boolean;
  /** The session's folder: paths in it are shown relative to it. */
  cwd?: string;
  /** The user's own command (`!cmd`), drawn as a card but theirs. */
  by?: "user";
  /** The calls of the subagent this call started, in order (its fold); absent for other calls. */
  subagent?: SubagentCallView[];
}

/** One call a subagent made, as its parent's fold shows it. */
export interface SubagentCallView {
  call: ToolCallView;
  display: ToolDisplay;
}

/** What one transcript item shows: the item, and for a tool call its card's view. */
export interface ItemView {
  item: TranscriptItem;
  /** Set for a `tool` item whose call the session knows. */
  card?: ToolCardView;
}

/** A tool call's card view, derived from the session. */
export function toolCardViewOf(state: SessionState, call: ToolCallView): ToolCardView {
  const terminals: Record<string, TerminalView | undefined> = {};
  for (const id of terminalIdsOf(call)) terminals[id] = state.terminals[id];
  return {
    call,
    display: displayOf(state, call),
    terminals,
    awaiting: state.permissions.some((p) => p.toolCallId === call.toolCallId),
    cwd: state.info?.cwd,
    ...(call.subagentCalls?.length
      ? {
          subagent: call.subagentCalls.flatMap((id) => {
            const child = state.toolCalls[id];
            return child ? [{ call: child, display: displayOf(state, child) }] : [];
          }),
        }
      : {}),
  };
}

/** Whether two records hold the same keys with the same values (by identity). */
function sameFields(a: object, b: object): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k as keyof typeof a], b[k as keyof typeof b]));
}

function sameFold(a: SubagentCallView[] | undefined, b: SubagentCallView[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((x, i) => x.call === b[i].call && x.display === b[i].display);
}

function sameCard(a: ToolCardView | undefined, b: ToolCardView | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    sameFields({ ...a, terminals: undefined, subagent: undefined }, { ...b, terminals: undefined, subagent: undefined }) &&
    sameFields(a.terminals, b.terminals) &&
    sameFold(a.subagent, b.subagent)
  );
}

const views = new WeakMap<TranscriptItem, ItemView>();

/**
 * What one transcript item shows, derived once from the session: the same object for as long as
 * nothing it shows changed, so whoever draws it may keep its rows by the view's identity.
 */
export function itemViewOf(state: SessionState, item: TranscriptItem): ItemView {
  const call = item.kind === "tool" ? state.toolCalls[item.toolCallId] : undefined;
  const card = call ? toolCardViewOf(state, call) : item.kind === "shell" ? shellCardViewOf(state, item) : undefined;
  const next: ItemView = card ? { item, card } : { item };
  const prev = views.get(item);
  if (prev && sameCard(prev.card, next.card)) return prev;
  views.set(item, next);
  return next;
}
