import type { SessionEvent } from "./events.js";
import { IdFilter } from "./id-filter.js";
import type { SessionState, ToolCallView, TranscriptItem } from "./state.js";

/**
 * How many events a finished call must have gone untouched before print mode lets it go: an agent
 * says what became of a call right after it ends (its last update, a cancel read as "stopped"),
 * never thousands of events later.
 */
export const RETIRE_AFTER_EVENTS = 10_000;

/** An object key V8 lists first, in numeric order (an array index): such calls stay where they are. */
export function isIndexKey(id: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(id) && Number(id) < 4294967295;
}

/** A call a pass went over: taken out of the state, or kept in it for good (`kept`). */
export interface PassedCall {
  call: ToolCallView;
  kept: boolean;
}

/** Where the calls a print run let go are kept (the print layer's spool). */
export interface RetiredCallStore {
  /**
   * Whether the calls of turn `turnId` may leave the state: the store lists them and gives them
   * back. The others stay (a resumed session's history: its log is in memory anyway, and a replay's
   * end checks its calls against it).
   */
  owns(turnId: string): boolean;
  /** Takes the calls each pass went over, in order. */
  passed(calls: PassedCall[]): void;
  /** The calls of `ids` that left the state, as they were, to put back (those it holds; others are new calls). */
  recall(ids: readonly string[], at: number): ToolCallView[];
}

/**
 * Takes finished calls out of a print run's state, so a flood of 100,000 calls does not keep
 * 100,000 records and transcript entries in memory: print mode needs a finished call only for its
 * line in the result, which the caller keeps. A pass goes over the calls in the order they were
 * announced, up to the first one an event touched in the last `quietEvents`: each call of the
 * store's turns it passes leaves the state if nothing may ask for it again (final by the agent's
 * word, with no process, terminal, permission, task, subagent or poll tied to it), and is otherwise
 * kept in it for good, so the caller can list every passed call in order, then the rest. An event
 * that names a call that left puts it back first (`restore`).
 *
 * It changes the state it is given in place: only for a state no one else keeps (the event queue's
 * newest-only mode, whose transitions already change it in place). Not for the TUI, which shows
 * every call.
 */
export class CallRetirer {
  /** Passed calls that stay in the state. */
  private readonly kept = new Set<string>();
  /** Items before this index belong to passed calls (or to none). */
  private itemCursor = 0;
  private lastPassSeq = 0;
  /** The stand-in for retired calls' transcript entries: the same kind and turn, so what reads a turn's items sees its calls. */
  private standIn?: TranscriptItem & { kind: "tool" };
  /** The ids of the calls that left: an update naming one of them brings it back (`restore`). */
  private readonly gone = new IdFilter();

  constructor(private readonly quietEvents = RETIRE_AFTER_EVENTS) {}

  /**
   * Puts back into `state`, before `events` are applied, the calls that left it and that an event
   * names again (a late update, a permission asked for it): applied to the call as it was, in its
   * turn, they change it as they would have had it never left, instead of announcing a new call,
   * open, at the end of the list.
   */
  restore(state: SessionState, events: readonly SessionEvent[], store: RetiredCallStore): void {
    let ids: string[] | undefined;
    for (const ev of events) {
      const id = namedCall(ev);
      if (typeof id === "string" && state.toolCalls[id] === undefined && this.gone.mayHave(id)) (ids ??= []).push(id);
    }
    if (!ids) return;
    for (const call of store.recall(ids, events[0].at)) {
      call.lastSeq = state.seq;
      state.toolCalls[call.toolCallId] = call;
    }
  }

  /** The calls this pass went over, in order (none until enough events have passed since the last pass). */
  retire(state: SessionState, store: Pick<RetiredCallStore, "owns">): PassedCall[] {
    // Every half window: each pass lists the calls in the state, which stay under ~1.5 windows.
    if (state.seq - this.lastPassSeq < this.quietEvents / 2) return [];
    this.lastPassSeq = state.seq;
    const held = heldCalls(state);
    const quietSince = state.seq - this.quietEvents;
    const calls = state.toolCalls;
    const passed: PassedCall[] = [];
    let gone = false;
    for (const id in calls) {
      // Listed first by the object, whatever the order of announcement: left where they are.
      if (isIndexKey(id) || this.kept.has(id)) continue;
      const call = calls[id];
      if (call.lastSeq > quietSince) break;
      if (!store.owns(call.turnId)) {
        // Not the run's (a resumed history): it stays, and no pass lists it.
        this.kept.add(id);
        continue;
      }
      const kept = !retirable(call) || held.has(id);
      passed.push({ call, kept });
      if (kept) this.kept.add(id);
      else {
        delete calls[id];
        this.gone.add(id);
        gone = true;
      }
    }
    if (gone) this.dropItems(state);
    return passed;
  }

  /** Replaces the transcript entries of calls no longer in the state, oldest first, up to the first call not passed yet. */
  private dropItems(state: SessionState): void {
    const { items, toolCalls } = state;
    let i = this.itemCursor;
    for (; i < items.length; i++) {
      const item = items[i];
      if (item.kind !== "tool" || item === this.standIn) continue;
      if (toolCalls[item.toolCallId] !== undefined) {
        if (isIndexKey(item.toolCallId) || this.kept.has(item.toolCallId)) continue;
        break;
      }
      let standIn = this.standIn;
      if (standIn?.turnId !== item.turnId || standIn.history !== item.history)
        standIn = this.standIn = { kind: "tool", id: "", turnId: item.turnId, toolCallId: "", history: item.history };
      state.itemIndex.delete(item.id);
      items[i] = standIn;
    }
    this.itemCursor = i;
  }
}

/** The call an event names by id, where it may name one that left: an update to it, a permission asked for it. */
function namedCall(ev: SessionEvent): unknown {
  if (ev.type === "permission_asked") return ev.request.toolCall.toolCallId;
  if (ev.type !== "update") return undefined;
  const u = ev.notification.update;
  return u.sessionUpdate === "tool_call_update" || u.sessionUpdate === "tool_call" ? u.toolCallId : undefined;
}

/** A finished call no update is due for. Commands stay: their process may outlive the call, and a poll name it. */
function retirable(call: ToolCallView): boolean {
  return (
    (call.status === "completed" || call.status === "failed") &&
    call.localStatus === undefined &&
    call.kind !== "execute" &&
    call.terminalId === undefined &&
    call.permission === undefined &&
    call.askedOnly === undefined &&
    call.polls === undefined &&
    call.pollOf === undefined &&
    call.subagentOf === undefined &&
    call.subagentCalls === undefined &&
    call.detached === undefined
  );
}

/** Calls other parts of the state name: a pending permission, a background task, a terminal, a subagent's session. */
function heldCalls(state: SessionState): Set<string> {
  const held = new Set<string>();
  for (const p of state.permissions) held.add(p.toolCallId);
  for (const t of Object.values(state.background)) if (t.toolCallId) held.add(t.toolCallId);
  for (const t of Object.values(state.terminals)) if (t.toolCallId) held.add(t.toolCallId);
  for (const id of Object.values(state.subagentSessions ?? {})) held.add(id);
  return held;
}
