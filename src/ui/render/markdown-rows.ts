import type { Token, Tokens } from "marked";
import { highlightCode } from "../components/code-block.js";
import { decodeEntities, inlinePlainText } from "../components/markdown-inline.js";
import { splitStreamingMarkdown } from "../components/markdown-split.js";
import { fitColumns } from "../components/markdown-table.js";
import { renderLibs } from "../components/render-libs.js";
import { colorsEnabled } from "../components/theme.js";
import { safeText } from "../../text/terminal-safe.js";
import { paint, role } from "./style.js";
import { cellWidth, prefixRows, wrapRows } from "./text.js";

/** Inline tokens (text, emphasis, code spans, links) as one styled string. */
export function inlineAnsi(tokens: Token[] | undefined): string {
  if (!tokens) return "";
  let out = "";
  for (const token of tokens) out += inlineToken(token);
  return out;
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case "text":
      // Text inside tight list items carries its own inline tokens.
      return token.tokens && token.tokens.length > 0 ? inlineAnsi(token.tokens) : decodeEntities(token.text);
    case "escape":
      return decodeEntities(token.text);
    case "strong":
      return paint(inlineAnsi(token.tokens), { bold: true });
    case "em":
      return paint(inlineAnsi(token.tokens), { italic: true });
    case "del":
      return paint(inlineAnsi(token.tokens), { strike: true });
    case "codespan":
      // Without colour the backticks are the only thing that sets code apart.
      return role("code", colorsEnabled() ? decodeEntities(token.text) : `\`${decodeEntities(token.text)}\``);
    case "br":
      return "\n";
    case "link": {
      const label = inlinePlainText(token.tokens) || token.href;
      const showUrl = label !== token.href && !token.href.startsWith("mailto:");
      return role("link", inlineAnsi(token.tokens) || token.href, { underline: true }) + (showUrl ? paint(` (${token.href})`, { dim: true }) : "");
    }
    case "image":
      return paint(`[image${token.text ? `: ${token.text}` : ""}] (${token.href})`, { dim: true });
    case "html":
      return token.text;
    case "checkbox":
      return "";
    default:
      return "text" in token && typeof token.text === "string" ? token.text : token.raw;
  }
}

function lexBlocks(text: string): Token[] {
  if (text.trim() === "") return [];
  return renderLibs().Lexer.lex(text, { gfm: true }).filter((t) => t.type !== "space" && t.type !== "def");
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
      return wrapRows(paint(inlineAnsi(token.tokens), { bold: true, underline: token.depth === 1, role: token.depth <= 2 ? "heading" : undefined }), width);
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
export function codeRows(code: string, lang: string | undefined, width: number, streaming: boolean): string[] {
  const language = lang?.trim().split(/\s+/)[0] ?? "";
  const rows: string[] = [];
  if (language) rows.push(`  ${paint(language, { dim: true })}`);
  const shown = highlightCode(code, language, streaming);
  for (const line of shown.split("\n")) rows.push(...prefixRows(wrapRows(line, Math.max(1, width - 2)), "  "));
  return rows;
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

const SEPARATOR = " │ ";
const MIN_COLUMN = 3;

/** A GFM table whose columns share `width`; cells that do not fit wrap inside their column. */
function tableRows(token: Tokens.Table, width: number): string[] {
  const natural = token.header.map((cell, col) =>
    Math.max(MIN_COLUMN, cellWidth(inlinePlainText(cell.tokens)), ...token.rows.map((row) => (row[col] ? longestLine(inlinePlainText(row[col].tokens)) : 0))),
  );
  const widths = fitColumns(natural, width - SEPARATOR.length * Math.max(0, natural.length - 1));
  const sep = paint(SEPARATOR, { role: "border", dim: true });
  const row = (cells: Tokens.TableCell[], header: boolean): string[] => {
    const columns = widths.map((w, col) => {
      const cell = cells[col];
      const text = cell ? inlineAnsi(cell.tokens) : "";
      return { rows: wrapRows(header ? paint(text, { bold: true }) : text, w), w, align: cell?.align };
    });
    const height = Math.max(1, ...columns.map((c) => c.rows.length));
    const out: string[] = [];
    for (let r = 0; r < height; r++) {
      out.push(columns.map((c) => alignCell(c.rows[r] ?? "", c.w, c.align)).join(sep).replace(/\s+$/, ""));
    }
    return out;
  };
  const rule = paint(widths.map((w) => "─".repeat(w)).join("─┼─"), { role: "border", dim: true });
  return [...row(token.header, true), rule, ...token.rows.flatMap((r) => row(r, false))];
}

function alignCell(text: string, width: number, align: string | null | undefined): string {
  const room = Math.max(0, width - cellWidth(text));
  if (align === "right") return " ".repeat(room) + text;
  if (align === "center") return " ".repeat(Math.floor(room / 2)) + text + " ".repeat(room - Math.floor(room / 2));
  return text + " ".repeat(room);
}

function longestLine(text: string): number {
  return Math.max(0, ...text.split("\n").map(cellWidth));
}

/** Rows of the stable part of a streaming message, kept between frames: only the open tail is lexed again. */
export interface MarkdownMemo {
  stable?: string;
  width?: number;
  rows?: string[];
  blocks?: number;
}

/**
 * Markdown as styled rows of at most `width` cells. While `live`, the stable blocks (those later
 * text cannot change) are taken from `memo` when they did not change, so a frame lexes only the
 * open last block and highlights no code still being written.
 */
export function markdownRows(source: string, width: number, opts: { live?: boolean; memo?: MarkdownMemo } = {}): string[] {
  const text = safeText(source);
  if (!opts.live) return blocksRows(lexBlocks(text), width, false);
  const { stable, tail } = splitStreamingMarkdown(text);
  const memo = opts.memo ?? {};
  if (memo.stable !== stable || memo.width !== width) {
    const blocks = lexBlocks(stable);
    memo.stable = stable;
    memo.width = width;
    memo.rows = blocksRows(blocks, width, false);
    memo.blocks = blocks.length;
  }
  const tailRows = blocksRows(lexBlocks(tail), width, true);
  if (!memo.blocks) return tailRows;
  if (tailRows.length === 0) return memo.rows!;
  return [...memo.rows!, "", ...tailRows];
}
