import type { PlanEntry } from "@agentclientprotocol/sdk";
import type { DrawContext } from "./draw-context.js";
import type { ItemView } from "./item-view.js";
import { renderLibs } from "./render-libs.js";
import { INTERRUPTED_MARK, NO_REPLY_MARK, PLAN_ICONS, USER_PROMPT, withColorsRead } from "./theme.js";
import { compactJson } from "./tool-call-fields.js";
import { inlineAnsi } from "./markdown-inline.js";
import { markdownRows, type MarkdownMemo } from "./markdown-rows.js";
import { safeLine, safeText } from "../../text/terminal-safe.js";
import { paint, type Style } from "./style.js";
import { hang, truncateRow, wrapRows } from "./text.js";
import { toolCardRows } from "./tool-card-rows.js";

/** What an item is drawn with besides its view. */
export interface ItemContext extends DrawContext {
  /** Still streaming: markdown lexes only its open last block (with `memo` kept between frames). */
  live?: boolean;
  memo?: MarkdownMemo;
}

/** A turn's divider: a rule, named when the turn is the agent's own or history. */
export function dividerRows(origin: string, history: boolean, width: number): string[] {
  const label = origin === "agent" ? "agent started a turn" : origin === "history" || history ? "history" : "";
  const rule = label ? `── ${label} ` : "";
  return [truncateRow(paint(rule + "─".repeat(Math.max(0, width - rule.length)), { dim: true }), width)];
}

/** Before a message the user steered into a running turn rather than sent as a prompt of its own. */
const STEERED_MARK = "(steered)";

/** A prompt; agent context replayed as a user message is one dim line unless expanded; a steered message says so. */
export function userRows(source: string, internal: boolean, width: number, expanded: boolean, steered = false): string[] {
  // A prompt replayed by the agent is the agent's text.
  const text = safeText(source);
  if (internal && !expanded) {
    const first = text.trim().split("\n")[0] ?? "";
    return [truncateRow(paint(`${USER_PROMPT} (agent context) ${first}`, { dim: true }), width)];
  }
  const style: Style = internal ? { dim: true } : { role: "user" };
  const mark = steered ? `${paint(STEERED_MARK, { role: "accent", dim: true })} ` : "";
  return hang(`${paint(USER_PROMPT, { role: "user", bold: true })} `, "  ", mark + paint(text, style), width);
}

const NOTICE: Record<"info" | "warning" | "error", { icon: string; role: "info" | "warning" | "error" }> = {
  info: { icon: "•", role: "info" },
  warning: { icon: "!", role: "warning" },
  error: { icon: "✗", role: "error" },
};

/** A message from conch itself, coloured by level. */
export function noticeRows(level: "info" | "warning" | "error", text: string, width: number): string[] {
  const look = NOTICE[level] ?? NOTICE.info;
  return hang(
    `${paint(look.icon, { role: look.role, bold: true })} `,
    "  ",
    paint(safeText(text), { role: look.role, dim: level === "info" }),
    width,
  );
}

/** The agent's reasoning, dim and italic; its first line unless expanded. */
export function thoughtRows(text: string, width: number, expanded: boolean): string[] {
  const lines = safeText(text)
    .replace(/^\s*\n/, "")
    .replace(/\s+$/, "")
    .split("\n");
  if (lines.length === 1 && lines[0].trim() === "") return [];
  const shown = expanded ? lines : lines.slice(0, 1);
  const hidden = lines.length - shown.length;
  // Only inline markdown: reasoning summaries use **bold** titles, and block layout would fight the dim style.
  const body = paint(inlineAnsi(renderLibs().Lexer.lexInline(shown.join("\n"))), { dim: true, italic: true });
  const rows = hang(`${paint("✻", { dim: true })} `, "  ", body, width);
  if (hidden > 0) rows.push(`  ${paint(`(${hidden} more line${hidden === 1 ? "" : "s"})`, { dim: true })}`);
  return rows;
}

/** The agent's plan as a checklist: the running step highlighted, done steps dimmed and struck through. */
export function planRows(entries: PlanEntry[], width: number): string[] {
  const done = entries.filter((e) => e.status === "completed").length;
  const rows = [paint("Plan", { bold: true }) + paint(` ${done}/${entries.length} done`, { dim: true })];
  for (const entry of entries) {
    const running = entry.status === "in_progress";
    const completed = entry.status === "completed";
    const icon = paint(PLAN_ICONS[entry.status] ?? PLAN_ICONS.pending, {
      role: running ? "accent" : completed ? "success" : undefined,
      dim: completed,
    });
    // Only "high" gets a mark: agents that send every entry as "medium" would make any other mark noise.
    const mark = entry.priority === "high" ? `${paint("!", { role: "error", bold: true })} ` : "";
    const text = paint(safeText(entry.content), {
      bold: running,
      role: running ? "accent" : undefined,
      dim: completed || (entry.priority === "low" && !running),
      strike: completed,
    });
    rows.push(...hang(`${icon} ${mark}`, mark ? "    " : "  ", text, width));
  }
  return rows;
}

/** One transcript item as styled rows of at most `width` cells. */
export function itemRows(view: ItemView, ctx: ItemContext): string[] {
  return withColorsRead(() => rowsOf(view, ctx));
}

/** `itemRows` by the item's kind. */
function rowsOf(view: ItemView, ctx: ItemContext): string[] {
  const { item } = view;
  const { width } = ctx;
  const expanded = ctx.expanded === true;
  switch (item.kind) {
    case "turn":
      return dividerRows(item.origin, item.history, width);
    case "user":
      return userRows(item.text, item.internal === true, width, expanded, item.steered === true);
    case "agent":
      return markdownRows(item.text, width, { live: ctx.live, memo: ctx.memo });
    case "thought":
      return thoughtRows(item.text, width, expanded);
    case "tool":
      return view.card ? toolCardRows(view.card, ctx) : [paint(`tool call ${item.toolCallId}`, { dim: true })];
    case "shell":
      return view.card ? toolCardRows(view.card, ctx) : [paint(`! ${safeLine(item.command)}`, { role: "user" })];
    case "plan":
      return planRows(item.entries, width);
    case "interrupted":
      return [paint(INTERRUPTED_MARK, { dim: true })];
    case "no_reply":
      return [paint(NO_REPLY_MARK, { dim: true })];
    case "notice":
      return noticeRows(item.level, item.text, width);
    case "unknown":
      return [
        paint(`unknown update ${item.updateKind}`, { dim: true }),
        truncateRow(paint(compactJson(item.raw, expanded ? 10_000 : Math.max(20, width * 2)), { dim: true }), width),
      ];
    default:
      return wrapRows("", width);
  }
}
