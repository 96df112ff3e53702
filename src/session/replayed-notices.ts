import type { Draft } from "./draft.js";
import { promptOf, promptTurnsOf } from "./prompt-turns.js";
import type { SessionState, TranscriptItem } from "./state.js";
import type { PromptNotices, QuestionNotice } from "./transcript-item.js";

// A replay carries the agent's text but not the questions it asked the person (they went through
// conch, not the transcript): conch's log puts their notices back where they were live, placed by
// how much of the agent's text came before them, since a replay may join or split its messages,
// and by the call they follow.

/** Characters that are not white space: the agent's text is the same in a replay, its chunking and blank lines may not be. */
function inkCount(text: string): number {
  return text.replace(/\s/g, "").length;
}

/** The question notices of each prompt's turn in a session folded from conch's own log, in order. */
export function questionNoticesOf(local: SessionState): PromptNotices[] {
  const turns = promptTurnsOf(local);
  const byTurn = new Map<string, { chars: number; tool?: string; notices: QuestionNotice[] }>();
  for (const item of local.items) {
    const turnId = item.turnId;
    if (!turnId || !turns.has(turnId)) continue;
    const turn = byTurn.get(turnId) ?? { chars: 0, notices: [] };
    byTurn.set(turnId, turn);
    if (item.kind === "agent") turn.chars += inkCount(item.text);
    else if (item.kind === "tool") turn.tool = item.toolCallId;
    else if (item.kind === "notice" && item.question)
      turn.notices.push({ text: item.text, after: turn.chars, ...(turn.tool ? { afterTool: turn.tool } : {}) });
  }
  return [...byTurn].flatMap(([turnId, turn]) => (turn.notices.length ? [{ ...turns.get(turnId)!, notices: turn.notices }] : []));
}

/** The agent's non-blank characters so far in a turn. */
function agentInkIn(items: readonly TranscriptItem[], turnId: string): number {
  let n = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item.turnId !== turnId) continue;
    if (item.kind === "turn") break;
    if (item.kind === "agent") n += inkCount(item.text);
  }
  return n;
}

/** The notices of a replayed turn that are not back yet (the turn is matched by prompt and order). */
function waitingNotices(d: Draft, turnId: string): QuestionNotice[] {
  const marks = d.s.replayMarks;
  if (!marks?.notices) return [];
  const prompt = promptOf(d.s.items, turnId);
  if (prompt === undefined) return [];
  const nth = marks.seen[prompt] ?? 0;
  const notices = marks.notices.find((p) => p.prompt === prompt && p.nth === nth)?.notices ?? [];
  const placed = marks.placed?.turnId === turnId ? marks.placed.count : 0;
  return notices.slice(placed);
}

function placeNotice(d: Draft, turnId: string, notice: QuestionNotice): void {
  const marks = d.s.replayMarks!;
  const count = marks.placed?.turnId === turnId ? marks.placed.count : 0;
  d.s.replayMarks = { ...marks, placed: { turnId, count: count + 1 } };
  d.addItem({ kind: "notice", id: d.nextId("i"), turnId, level: "info", text: notice.text, question: true });
}

/**
 * Where in `text` a notice goes that wants `need` more non-blank characters before it: just after
 * the character that makes them up, if more of the agent's text follows in `text`; else undefined
 * (it waits for later text, or the turn's end).
 */
function cutFor(text: string, need: number): number | undefined {
  let cut = 0;
  if (need > 0) {
    let seen = 0;
    for (; cut < text.length && seen < need; cut++) if (!/\s/.test(text[cut])) seen++;
    if (seen < need) return undefined;
  }
  return inkCount(text.slice(cut)) > 0 ? cut : undefined;
}

/**
 * A replayed agent chunk of `turnId`: its text goes through `put`, cut where the log's question
 * notices of this turn come, each notice placed at its cut.
 */
export function putAroundNotices(d: Draft, turnId: string, text: string, put: (part: string) => void): void {
  const waiting = waitingNotices(d, turnId);
  if (!waiting.length) return put(text);
  let before = agentInkIn(d.s.items, turnId);
  let rest = text;
  for (const notice of waiting) {
    if (notice.afterTool && !d.tool(notice.afterTool)) break;
    const cut = cutFor(rest, notice.after - before);
    if (cut === undefined) break;
    if (cut > 0) put(rest.slice(0, cut));
    before += inkCount(rest.slice(0, cut));
    placeNotice(d, turnId, notice);
    // Cut inside the agent's text: what follows is a new message, as it was live.
    rest = cut > 0 ? rest.slice(cut).replace(/^\s+/, "") : rest;
  }
  if (rest) put(rest);
}

/**
 * A replayed call is about to be shown in `turnId`: the notices that came before it live (all the
 * text they follow is there, and the call they follow) go first, since a call ends a run of text.
 */
export function placeBeforeCall(d: Draft, turnId: string): void {
  const waiting = waitingNotices(d, turnId);
  if (!waiting.length) return;
  const before = agentInkIn(d.s.items, turnId);
  for (const notice of waiting) {
    if (notice.after > before || (notice.afterTool && !d.tool(notice.afterTool))) break;
    placeNotice(d, turnId, notice);
  }
}

/** A replayed turn ends: the notices its text never reached (the replay's text differs) go at its end rather than nowhere. */
export function placeLeftoverNotices(d: Draft, turnId: string): void {
  for (const notice of waitingNotices(d, turnId)) placeNotice(d, turnId, notice);
}
