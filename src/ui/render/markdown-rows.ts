import type { Token, Tokens } from "marked";
import { renderLibs } from "./render-libs.js";
import { colorsEnabled } from "./theme.js";
import { safeText } from "../../text/terminal-safe.js";
import { decodeEntities, inlineAnsi } from "./markdown-inline.js";
import { MarkdownCutter, type Join, type Segment } from "./markdown-split.js";
import { tableRows } from "./markdown-table.js";
import { paint } from "./style.js";
import { prefixRows, wrapRows } from "./text.js";

function lexBlocks(text: string): Token[] {
  if (text.trim() === "") return [];
  return renderLibs()
    .Lexer.lex(text, { gfm: true })
    .filter((t) => t.type !== "space" && t.type !== "def");
}

/** Blocks as rows, one blank row between blocks (as between paragraphs); a nested list follows its text directly. */
function blocksRows(tokens: Token[], width: number, streaming: boolean, nested = false): string[] {
  const out: string[] = [];
  const blocks = tokens.filter((t) => t.type !== "space" && t.type !== "def" && t.type !== "checkbox");
  blocks.forEach((t, i) => {
    if (i > 0 && !(nested && t.type === "list")) out.push("");
    out.push(...blockRows(t, width, streaming));
  });
  return out;
}

/** One block token as rows; nested blocks (lists, quotes) recurse with less width. */
function blockRows(token: Token, width: number, streaming: boolean): string[] {
  switch (token.type) {
    case "heading":
      return wrapRows(
        paint(inlineAnsi(token.tokens), { bold: true, underline: token.depth === 1, role: token.depth <= 2 ? "heading" : undefined }),
        width,
      );
    case "paragraph":
      return wrapRows(inlineAnsi(token.tokens), width);
    case "text":
      return wrapRows(token.tokens ? inlineAnsi(token.tokens) : decodeEntities(token.text), width);
    case "code":
      return codeRows(token.text, token.lang, width, streaming);
    case "blockquote":
      return prefixRows(blocksRows(token.tokens ?? [], Math.max(1, width - 2), streaming, true), paint("│ ", { role: "muted", dim: true }));
    case "list":
      return listRows(token as Tokens.List, width, streaming, 0);
    case "table":
      return tableRows(token as Tokens.Table, width);
    case "hr":
      return [paint("─".repeat(Math.max(1, width)), { dim: true })];
    case "html":
      return wrapRows(paint(token.text.replace(/\n+$/, ""), { dim: true }), width);
    default:
      return wrapRows(token.raw.replace(/\n+$/, ""), width);
  }
}

/** A fenced code block, indented, its language named above it, highlighted unless still streaming. */
function codeRows(code: string, lang: string | undefined, width: number, streaming: boolean): string[] {
  const language = lang?.trim().split(/\s+/)[0] ?? "";
  const rows: string[] = [];
  if (language) rows.push(`  ${paint(language, { dim: true })}`);
  const shown = highlightCode(code, language, streaming);
  for (const line of shown.split("\n")) rows.push(...prefixRows(wrapRows(line, Math.max(1, width - 2)), "  "));
  return rows;
}

/** Highlighted code as ANSI text, or the code unchanged when it cannot or should not be highlighted. */
export function highlightCode(code: string, language: string, plain: boolean): string {
  const text = code.replace(/\n+$/, "");
  if (plain || !language || !colorsEnabled()) return text;
  const { highlight, supportsLanguage } = renderLibs();
  if (!supportsLanguage(language)) return text;
  try {
    return highlight(text, language);
  } catch {
    // A grammar that chokes on partial or odd input must not take the transcript down with it.
    return text;
  }
}

const BULLETS = ["•", "◦", "▪"];

function listRows(token: Tokens.List, width: number, streaming: boolean, depth: number): string[] {
  const start = typeof token.start === "number" ? token.start : 1;
  const markers = token.items.map((item, i) => {
    if (item.task) return item.checked ? "☑" : "☐";
    return token.ordered ? `${start + i}.` : (BULLETS[depth % BULLETS.length] ?? "•");
  });
  const markerWidth = Math.max(...markers.map((m) => m.length)) + 1;
  const out: string[] = [];
  token.items.forEach((item, i) => {
    if (token.loose && i > 0) out.push("");
    const body = itemRows(item, Math.max(1, width - markerWidth), streaming, depth);
    const marker = paint(markers[i].padEnd(markerWidth), { role: item.task && item.checked ? "success" : "accent" });
    body.forEach((row, j) => out.push((j === 0 ? marker : " ".repeat(markerWidth)) + row));
    if (body.length === 0) out.push(marker);
  });
  return out;
}

function itemRows(item: Tokens.ListItem, width: number, streaming: boolean, depth: number): string[] {
  const blocks = item.tokens.filter((t) => t.type !== "space" && t.type !== "checkbox");
  const done = item.task && item.checked;
  const out: string[] = [];
  blocks.forEach((t, i) => {
    if (t.type === "list") {
      out.push(...listRows(t as Tokens.List, width, streaming, depth + 1));
      return;
    }
    if (i > 0 && item.loose) out.push("");
    if (done && (t.type === "text" || t.type === "paragraph")) {
      out.push(...wrapRows(paint(inlineAnsi((t as Tokens.Text).tokens ?? [t]), { dim: true, strike: true }), width));
    } else {
      out.push(...blockRows(t, width, streaming));
    }
  });
  return out;
}

/** A streaming message's segments drawn so far, kept between frames: only the open tail is drawn again. */
export interface MarkdownMemo {
  width?: number;
  cutter?: MarkdownCutter;
  /** Rows of the segments so far. */
  rows?: string[];
  /** How the next rows follow them. */
  pending?: Join;
}

/** Rows of one segment of a streaming message. */
function segmentRows(seg: Segment, width: number, streaming: boolean): string[] {
  const text = safeText(seg.text);
  if (seg.kind === "md") return blocksRows(lexBlocks(text), width, streaming);
  const rows: string[] = [];
  for (const line of highlightCode(text, seg.lang, streaming).split("\n"))
    rows.push(...prefixRows(wrapRows(line, Math.max(1, width - 2)), "  "));
  return text === "" ? [] : rows;
}

/** Rows after `before`, as a segment joining with `join` draws them (a blank row between blocks). */
function joined(before: readonly string[], join: Join, rows: string[]): string[] {
  return before.length > 0 && rows.length > 0 && join === "block" ? ["", ...rows] : rows;
}

/**
 * The rows of a streaming message's stable segments, kept in `memo`: brought up to date with
 * `source` (which only grows), or started again when the width changed. With `final`, the message
 * is complete and its last line counts.
 */
export function stableMarkdownRows(source: string, width: number, memo: MarkdownMemo, final = false): string[] {
  if (memo.width !== width || !memo.cutter || !memo.rows || source.length < memo.cutter.length) {
    memo.width = width;
    memo.cutter = new MarkdownCutter();
    memo.rows = [];
    memo.pending = "soft";
  }
  for (const seg of memo.cutter.advance(source, final)) {
    const rows = segmentRows(seg, width, false);
    const join: Join = seg.join === "block" || memo.pending === "block" ? "block" : "soft";
    if (rows.length === 0) {
      memo.pending = join;
      continue;
    }
    memo.rows.push(...joined(memo.rows, join, rows));
    memo.pending = "soft";
  }
  return memo.rows;
}

/**
 * Markdown as styled rows of at most `width` cells. With a `memo` (a message that streams), the
 * text is drawn in segments (see `MarkdownCutter`): the stable ones are kept, and a frame draws only
 * the open tail, `live` as text still being written (code not highlighted yet). A message drawn
 * with a memo is drawn with it to the end, so rows shown once (in the scrollback) never change.
 */
export function markdownRows(source: string, width: number, opts: { live?: boolean; memo?: MarkdownMemo } = {}): string[] {
  const { memo } = opts;
  if (!memo) return blocksRows(lexBlocks(safeText(source)), width, false);
  const stable = stableMarkdownRows(source, width, memo, !opts.live);
  const tail = memo.cutter!.tail(source);
  const join: Join = tail.join === "block" || memo.pending === "block" ? "block" : "soft";
  const tailRows = segmentRows(tail, width, opts.live === true);
  return tailRows.length ? [...stable, ...joined(stable, join, tailRows)] : stable;
}
