import { displayStatus, isFinalStatus } from "../../session/state.js";
import { safeLine } from "../../text/terminal-safe.js";
import type { SubagentCallView } from "./item-view.js";
import { paint } from "./style.js";
import { cellWidth, truncateRow } from "./text.js";
import { KIND_ICONS, SPINNER_FRAMES, STATUS_LOOK } from "./theme.js";

/** One call of a subagent: its status, kind and title, the status word at the right. */
function callRow(view: SubagentCallView, width: number, frame: number): string {
  const status = displayStatus(view.call);
  const look = STATUS_LOOK[status] ?? STATUS_LOOK.unknown;
  const icon = status === "in_progress" ? SPINNER_FRAMES[frame % SPINNER_FRAMES.length] : look.icon;
  const head = `${paint(icon, { role: look.role })} ${paint(KIND_ICONS[view.call.kind ?? "other"] ?? KIND_ICONS.other, { dim: true })} ${safeLine(view.display.title)}`;
  const word = look.word ? ` ${paint(look.word, { role: look.role })}` : "";
  const room = width - (look.word ? cellWidth(look.word) + 1 : 0);
  const row = truncateRow(head, room);
  return `${row}${" ".repeat(Math.max(0, room - cellWidth(row)))}${word}`;
}

/**
 * The fold of the calls a subagent made, under the call that started it: folded, a count by status
 * and the call it works on now; expanded, every call on a row of its own.
 */
export function subagentRows(calls: SubagentCallView[], opts: { width: number; expanded: boolean; frame?: number }): string[] {
  if (calls.length === 0) return [];
  const frame = opts.frame ?? 0;
  const open = calls.filter((c) => !isFinalStatus(c.call));
  const failed = calls.filter((c) => ["failed", "rejected", "cancelled", "stalled", "interrupted"].includes(displayStatus(c.call))).length;
  const counts = [
    open.length ? `${open.length} running` : "",
    calls.length - open.length - failed ? `${calls.length - open.length - failed} done` : "",
    failed ? `${failed} not done` : "",
  ].filter(Boolean);
  const what = `${calls.length} call${calls.length === 1 ? "" : "s"} by the subagent · ${counts.join(", ")}`;
  if (!opts.expanded) {
    const now = open.at(-1);
    return [
      truncateRow(paint(`▸ ${what} (/expand lists them)`, { dim: true }), opts.width),
      ...(now ? [`  ${callRow(now, opts.width - 2, frame)}`] : []),
    ];
  }
  return [truncateRow(paint(`▾ ${what}`, { dim: true }), opts.width), ...calls.map((c) => `  ${callRow(c, opts.width - 2, frame)}`)];
}
