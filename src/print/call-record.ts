import type { ToolCallStatus } from "@agentclientprotocol/sdk";
import { displayStatus, type ToolCallView, type ToolDisplayStatus } from "../session/state.js";

/** One call's line in the result of a print run. */
export interface ResultCall {
  id: string;
  title: string;
  kind: string | null;
  status: ToolDisplayStatus;
  durationMs: number | null;
}

/** A result line's keys, in the order `resultCall` writes them. */
export const RESULT_CALL_KEYS = ["id", "title", "kind", "status", "durationMs"] as const;

/** A call as the result lists it. */
export function resultCall(t: ToolCallView): ResultCall {
  return {
    id: t.toolCallId,
    title: t.title,
    kind: t.kind ?? null,
    status: displayStatus(t),
    durationMs: t.endedAt !== undefined ? t.endedAt - t.startedAt : null,
  };
}

/** Where a record's result line ends: the first key after it (quoted and bare, so never inside a string's escaped quotes). */
const TAIL = ',"turnId":';

/**
 * A call that leaves a print run's state, as one line of compact JSON (no raw newline): its result
 * line's fields, then what puts it back as it was when an agent names it again (its turn, its
 * content, raw input and output, `_meta`). Only a finished call with nothing tied to it leaves
 * (`CallRetirer`): the fields such a call can have are all here but the two a restore sets anew
 * (`lastSeq`, `lastAt`).
 */
export function callRecord(t: ToolCallView): string {
  let line = JSON.stringify(resultCall(t));
  line = `${line.slice(0, -1)}${TAIL}${JSON.stringify(t.turnId)},"startedAt":${t.startedAt}`;
  if (t.history) line += ',"history":true';
  if (t.content.length) line += `,"content":${JSON.stringify(t.content)}`;
  if (t.locations.length) line += `,"locations":${JSON.stringify(t.locations)}`;
  if (t.rawInput !== undefined) line += `,"rawInput":${JSON.stringify(t.rawInput)}`;
  if (t.rawOutput !== undefined) line += `,"rawOutput":${JSON.stringify(t.rawOutput)}`;
  for (const _ in t.meta) {
    line += `,"meta":${JSON.stringify(t.meta)}`;
    break;
  }
  if (t.pids) line += `,"pids":${JSON.stringify(t.pids)}`;
  return `${line}}`;
}

/** The result line (compact JSON) a record begins with. */
export function resultLineOf(record: string): string {
  return `${record.slice(0, record.indexOf(TAIL))}}`;
}

/** The id of a record: its first field, up to the second one (`,"title":`, which holds raw quotes, so it is never inside a string). */
export function recordId(record: string): string {
  return JSON.parse(record.slice(6, record.indexOf(',"title":'))) as string;
}

/** The head every record of call `id` begins with (only a line begins so: a string's quotes are escaped). */
export function recordHead(id: string): string {
  return `{"id":${JSON.stringify(id)},`;
}

interface RecordFields extends ResultCall {
  turnId: string;
  startedAt: number;
  history?: true;
  content?: ToolCallView["content"];
  locations?: ToolCallView["locations"];
  rawInput?: unknown;
  rawOutput?: unknown;
  meta?: Record<string, unknown>;
  pids?: number[];
}

/** The call a record was made of, to put back into the state at time `at` (an event names it again). */
export function restoredCall(record: string, at: number): ToolCallView {
  const r = JSON.parse(record) as RecordFields;
  return {
    toolCallId: r.id,
    turnId: r.turnId,
    title: r.title,
    kind: (r.kind ?? undefined) as ToolCallView["kind"],
    // Only a call whose status is the agent's leaves: it shows as it is.
    status: r.status as ToolCallStatus,
    content: r.content ?? [],
    locations: r.locations ?? [],
    rawInput: r.rawInput,
    rawOutput: r.rawOutput,
    meta: r.meta ?? {},
    history: r.history === true,
    lastSeq: 0,
    lastAt: at,
    startedAt: r.startedAt,
    localStatus: undefined,
    endedAt: r.durationMs === null ? undefined : r.startedAt + r.durationMs,
    detached: undefined,
    terminalId: undefined,
    ...(r.pids ? { pids: r.pids } : {}),
  };
}
