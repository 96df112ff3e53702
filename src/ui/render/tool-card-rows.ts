import type { ToolKind } from "@agentclientprotocol/sdk";
import type { ToolBlock, ToolDisplay } from "../../session/profiles/profile.js";
import { safeLine, safeOutput, safeText } from "../../text/terminal-safe.js";
import { fileLink, NO_FEATURES } from "../tty/terminal-features.js";
import { displayStatus } from "../../session/state.js";
import { KEPT_AFTER_EXIT } from "../../terminals/terminal.js";
import type { ToolCardView } from "./item-view.js";
import { KIND_ICONS, SPINNER_FRAMES, STATUS_LOOK } from "./theme.js";
import { clipMarkdown, headTailLines, permissionLabel, relativePath, tailLines } from "./tool-call-fields.js";
import { diffRows } from "./diff-rows.js";
import { subagentRows } from "./subagent-rows.js";
import { markdownRows } from "./markdown-rows.js";
import { hiddenLinesRow, paneRows } from "./pane-rows.js";
import { paint } from "./style.js";
import { cellWidth, hang, prefixRows, truncateRow, wrapRows } from "./text.js";
import type { DrawContext } from "./draw-context.js";
import { LIVE_TERMINAL_ROWS } from "./card-pane.js";

/** A display with the agent's strings made safe to print (blocks are made safe where they are drawn). */
function safeDisplay(d: ToolDisplay): ToolDisplay {
  return {
    ...d,
    title: safeLine(d.title),
    command: d.command === undefined ? undefined : safeText(d.command),
    cwd: d.cwd === undefined ? undefined : safeLine(d.cwd),
  };
}

/** A path's text as a link to the file, when the terminal takes links. */
function linked(ctx: DrawContext, text: string, path: string): string {
  return ctx.links ? fileLink(text, path, { ...NO_FEATURES, hyperlinks: true }) : text;
}

const nullable = (t: string | null | undefined) => (t === null || t === undefined ? t : safeText(t));

/** Tabs as spaces to the next multiple of 8: the layout counts a tab as one column, the terminal does not. */
function expandTabs(text: string): string {
  if (!text.includes("\t")) return text;
  return text
    .split("\n")
    .map((line) => {
      let out = "";
      for (const ch of line) out += ch === "\t" ? " ".repeat(8 - (out.length % 8)) : ch;
      return out;
    })
    .join("\n");
}

/** Lines of text content shown before "N more lines" when collapsed. */
const TEXT_LINES = 10;
/** Diff lines shown when collapsed. */
const DIFF_LINES = 20;
/** The most rows of a finished command's output in its card: all of it up to this, else head and tail. */
const DONE_TERMINAL_ROWS = 20;
const EXPANDED_TERMINAL_ROWS = 40;
/** Expanded, a finished command shows all that its screen keeps. */
const EXPANDED_DONE_TERMINAL_ROWS = KEPT_AFTER_EXIT.head + KEPT_AFTER_EXIT.tail;

const more = (hidden: number, what = "more line") => paint(`… ${hidden} ${what}${hidden === 1 ? "" : "s"}`, { dim: true });

/** Markdown cut to its first lines unless expanded. */
export function clippedMarkdownRows(text: string, width: number, expanded: boolean, maxLines = TEXT_LINES): string[] {
  const clipped = expanded ? { text, hidden: 0 } : clipMarkdown(text, maxLines);
  return [...markdownRows(clipped.text, width), ...(clipped.hidden > 0 ? [more(clipped.hidden)] : [])];
}

/** Program output, verbatim (never markdown), its first lines unless expanded. */
export function clippedOutputRows(text: string, width: number, expanded: boolean, maxLines = TEXT_LINES): string[] {
  const lines = expandTabs(safeOutput(text)).replace(/\n+$/, "").split("\n");
  const max = expanded ? Infinity : maxLines;
  const shown = lines.length > max ? lines.slice(0, max) : lines;
  return [...shown.flatMap((l) => wrapRows(l, width)), ...(lines.length > shown.length ? [more(lines.length - shown.length)] : [])];
}

/** A call that will not run on: what its pane says instead of a running timer, when the terminal never reported an exit. */
function endedWord(card: ToolCardView): string | undefined {
  const status = displayStatus(card.call);
  if (status === "in_progress" || status === "pending" || status === "background") return undefined;
  return STATUS_LOOK[status]?.word || "ended";
}

/** The call was refused, or its permission withdrawn: its command never ran. */
function neverRan(card: ToolCardView): boolean {
  const p = card.call.permission;
  return (
    card.call.localStatus === "rejected" ||
    p?.outcome === "cancelled" ||
    p?.optionKind === "reject_once" ||
    p?.optionKind === "reject_always"
  );
}

function terminalRows(
  block: Extract<ToolBlock, { type: "terminal" }>,
  card: ToolCardView,
  ctx: DrawContext,
  width: number,
  title: string | undefined,
  startedAt: number | undefined,
): string[] {
  const expanded = ctx.expanded === true;
  const live = ctx.terminal?.(block.terminalId);
  const known = card.terminals[block.terminalId];
  const ended = endedWord(card);
  const reported = block.output !== undefined && block.output.trim() !== "" ? block.output : undefined;
  if (live) {
    const done = live.exitStatus !== null;
    // A call that is over while its terminal never said anything: no empty pane with a stopped clock.
    if (!done && ended && live.screen.contentRows === 0 && !reported) return [emptyEnding(card, ended)];
    const rows =
      done || ended
        ? expanded
          ? EXPANDED_DONE_TERMINAL_ROWS
          : DONE_TERMINAL_ROWS
        : expanded
          ? EXPANDED_TERMINAL_ROWS
          : LIVE_TERMINAL_ROWS;
    const elapsedMs = startedAt !== undefined ? Math.max(0, (ctx.now ?? Date.now()) - startedAt) : 0;
    return paneRows(live, {
      rows,
      width,
      title: safeLine(known?.command ?? title ?? "terminal"),
      elapsedMs,
      ended,
      emptyRows: reported ? clippedOutputRows(reported, width - 2, expanded, rows) : undefined,
    });
  }
  const tail = known?.outputTail || reported || "";
  if (tail === "") return known && ended && !known.exited ? [emptyEnding(card, ended)] : [];
  const output = safeOutput(tail);
  if (known?.exited !== false || ended) {
    const kept = headTailLines(output, expanded ? Infinity : DONE_TERMINAL_ROWS);
    return [...kept.head, ...(kept.hidden > 0 ? [hiddenLinesRow(kept.hidden)] : []), ...kept.tail].map((l) => truncateRow(l, width));
  }
  const running = tailLines(output, expanded ? Infinity : LIVE_TERMINAL_ROWS);
  return [
    ...(running.hidden > 0 ? [more(running.hidden, "earlier line")] : []),
    ...running.text.split("\n").map((l) => truncateRow(l, width)),
  ];
}

/** The line that stands for a pane whose command printed nothing and will not run on. */
function emptyEnding(card: ToolCardView, ended: string): string {
  const words = neverRan(card) ? "(not run)" : displayStatus(card.call) === "completed" ? "(no output)" : `(no output · ${ended})`;
  return paint(words, { dim: true });
}

function blockRows(
  block: ToolBlock,
  card: ToolCardView,
  ctx: DrawContext,
  width: number,
  title: string | undefined,
  startedAt: number | undefined,
): string[] {
  const expanded = ctx.expanded === true;
  switch (block.type) {
    case "prose":
      return clippedMarkdownRows(block.text, width, expanded);
    case "output":
      return clippedOutputRows(block.text, width, expanded);
    case "media":
      return [paint(safeLine(block.text), { dim: true })];
    case "diff":
      return diffRows(
        linked(ctx, safeLine(relativePath(block.path, card.cwd)), block.path),
        nullable(block.oldText),
        safeText(block.newText),
        width,
        expanded ? undefined : DIFF_LINES,
        { excerpt: block.excerpt },
      );
    case "terminal":
      return terminalRows(block, card, ctx, width, title, startedAt);
  }
}

function rawJsonRows(label: string, value: unknown, width: number): string[] {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return [paint(`${label}:`, { dim: true }), ...wrapRows(paint(text, { dim: true }), width)];
}

/** One tool call: status and kind, title, where it works, what it runs, what came back, the permission answer. */
export function toolCardRows(card: ToolCardView, ctx: DrawContext): string[] {
  const { width } = ctx;
  const { call: tool, cwd } = card;
  const expanded = ctx.expanded === true;
  const status = displayStatus(tool);
  const look = STATUS_LOOK[status] ?? STATUS_LOOK.unknown;
  const kind: ToolKind = tool.kind ?? "other";
  const inner = Math.max(10, width - 2);
  const display = safeDisplay(card.display);
  const icon = status === "in_progress" ? SPINNER_FRAMES[(ctx.frame ?? 0) % SPINNER_FRAMES.length] : look.icon;
  // The status word sits at the right edge of the first row, as the card's header reads.
  const wordWidth = look.word ? cellWidth(look.word) + 1 : 0;
  // The user's own command reads as theirs: `!`, as they typed it, in the colour of their prompts.
  const mark = card.by === "user" ? paint("!", { role: "user", bold: true }) : paint(KIND_ICONS[kind] ?? KIND_ICONS.other, { dim: true });
  const lead = `${paint(icon, { role: look.role })} ${mark} `;
  const rows = hang(lead, "    ", paint(display.title, { bold: true }), width - wordWidth);
  if (look.word)
    rows[0] = `${rows[0]}${" ".repeat(Math.max(0, width - wordWidth - cellWidth(rows[0])))} ${paint(look.word, { role: look.role })}`;
  const body: string[] = [];
  const diffPaths = new Set(display.blocks.flatMap((b) => (b.type === "diff" ? [b.path] : [])));
  // A file whose diff is shown: the diff says where (a location's line is only where its first hunk starts).
  const locations = tool.locations.filter((l) => !diffPaths.has(l.path));
  if (locations.length > 0) {
    const shown = locations.map((l) =>
      linked(ctx, safeLine(`${relativePath(l.path, cwd)}${typeof l.line === "number" ? `:${l.line}` : ""}`), l.path),
    );
    body.push(truncateRow(paint(shown.join("  "), { dim: true }), inner));
  }
  if (display.command !== undefined && display.command.trim() !== display.title.trim()) {
    body.push(...hang(paint("$ ", { role: "accent" }), "  ", display.command, inner));
  }
  if (display.cwd !== undefined && display.cwd !== cwd) body.push(...wrapRows(paint(`in ${display.cwd}`, { dim: true }), inner));
  const raw = expanded && ctx.rawJson !== false;
  if (raw && tool.rawInput !== undefined) body.push(...rawJsonRows("input", tool.rawInput, inner));
  const termTitle = display.command ?? (kind === "execute" ? display.title : undefined);
  const startedAt = tool.startedAt > 1e12 ? tool.startedAt : undefined;
  for (const block of display.blocks) body.push(...blockRows(block, card, ctx, inner, termTitle, startedAt));
  if (raw && tool.rawOutput !== undefined && display.blocks.length === 0) body.push(...rawJsonRows("output", tool.rawOutput, inner));
  if (card.subagent) body.push(...subagentRows(card.subagent, { width: inner, expanded, frame: ctx.frame }));
  if (card.awaiting) body.push(paint("awaiting permission", { role: "warning" }));
  const permission = permissionLabel(tool.permission);
  if (permission) body.push(paint(permission.text, { role: permission.allowed ? "success" : "error", dim: permission.allowed }));
  return [...rows, ...prefixRows(body, "  ")];
}
