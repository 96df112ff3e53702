/** How a piece of a streaming message follows the one before it: a blank row between blocks, or straight on. */
export type Join = "soft" | "block";

/** A piece of a streaming message that later text cannot change, to be drawn once. */
export interface Segment {
  text: string;
  /** Markdown blocks, or lines of a fenced code block whose opening line is in an earlier segment. */
  kind: "md" | "code";
  /** The fence's language, for a `code` segment. */
  lang: string;
  join: Join;
}

/** Lines a paragraph or a fenced code block may grow to before its beginning is cut off as a segment. */
export const SOFT_CUT_LINES = 8;

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)/;
const LIST_MARKER = /^ {0,3}([-*+]|\d{1,9}[.)])(\s|$)/;
/** Lines that start something other than paragraph text: a paragraph is never cut before them. */
const NOT_PARAGRAPH = /^ {0,3}(#{1,6}(\s|$)|>|\||<|([-*_=])\s*(\3\s*){2,}$)|^ {4}|\|/;

function closesFence(line: string, marker: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
  return m !== null && m[1][0] === marker[0] && m[1].length >= marker.length;
}

/** Whether inline markup that spans lines (code spans, strong, strikethrough) is closed by the end of `text`. */
function inlineClosed(text: string): boolean {
  const count = (s: string) => text.split(s).length - 1;
  return count("`") % 2 === 0 && count("**") % 2 === 0 && count("~~") % 2 === 0;
}

/**
 * Cuts a streaming message into segments as its text grows, so that a frame draws only the open
 * tail and what is done can go to the scrollback while the agent still writes. A segment ends:
 * - at a blank line, once the next line shows that a new block starts (not an indented
 *   continuation, not the next item of a list);
 * - after a fenced code block's closing line;
 * - inside a paragraph or a fenced block (at the top level) that grew past `SOFT_CUT_LINES`: the
 *   paragraph is cut before its last complete line, and only where no inline markup is open; the
 *   fenced block after a line, its next lines drawn as code on their own.
 * Every segment is drawn on its own, live or final, so what was drawn once never changes.
 */
export class MarkdownCutter {
  /** Start of the next line to read. */
  private pos = 0;
  /** Start of the open tail. */
  private cut = 0;
  private join: Join = "soft";
  private kind: "md" | "code" = "md";
  private fence: { marker: string; lang: string; top: boolean; lines: number } | null = null;
  private block: "none" | "para" | "list" | "other" = "none";
  private paraLines = 0;
  /** After blank lines: where the next segment would start, once the next line says it may. */
  private blankEnd = -1;
  private lastBlockList = false;
  /** How much of the text has been read. */
  length = 0;

  /**
   * Reads `text` (the whole message so far; it only grows) and returns the segments that became
   * stable. `final`: the message is complete, its last line too.
   */
  advance(text: string, final = false): Segment[] {
    const out: Segment[] = [];
    for (;;) {
      const nl = text.indexOf("\n", this.pos);
      if (nl < 0 && (!final || this.pos >= text.length)) break;
      const end = nl < 0 ? text.length : nl;
      const next = nl < 0 ? text.length : nl + 1;
      this.line(text, text.slice(this.pos, end), this.pos, next, out);
      this.pos = next;
    }
    // The line being written already shows that a new block starts after the blank line (its first
    // character is not a space, and no list is going on): the block before is done.
    if (this.blankEnd >= 0 && !this.lastBlockList && /^\S/.test(text.slice(this.pos, this.pos + 1))) {
      this.emit(out, text, this.blankEnd, { join: "block" });
      this.blankEnd = -1;
    }
    this.length = text.length;
    return out;
  }

  /** The open tail: what is not in a segment yet. */
  tail(text: string): Segment {
    return { text: text.slice(this.cut), kind: this.kind, lang: this.fence?.lang ?? "", join: this.join };
  }

  private emit(out: Segment[], text: string, end: number, next: { join: Join; kind?: "md" | "code" }): void {
    if (end > this.cut) out.push({ text: text.slice(this.cut, end), kind: this.kind, lang: this.fence?.lang ?? "", join: this.join });
    this.cut = end;
    this.join = next.join;
    this.kind = next.kind ?? "md";
  }

  private line(text: string, line: string, start: number, next: number, out: Segment[]): void {
    const fence = this.fence;
    if (fence) {
      if (closesFence(line, fence.marker)) {
        if (fence.top && this.kind === "code") {
          // The code before the closing line is this segment; the closing line itself draws nothing.
          this.emit(out, text, start, { join: "soft", kind: "code" });
          this.cut = next;
          this.join = "block";
          this.kind = "md";
          this.fence = null;
        } else {
          this.fence = null;
          if (fence.top) this.emit(out, text, next, { join: "block" });
        }
        this.block = "none";
        return;
      }
      if (fence.top && ++fence.lines >= SOFT_CUT_LINES) {
        this.emit(out, text, next, { join: "soft", kind: "code" });
        fence.lines = 0;
      }
      return;
    }
    if (line.trim() === "") {
      if (this.block !== "none") this.lastBlockList = this.block === "list";
      this.block = "none";
      if (this.cut < start || this.blankEnd >= 0) this.blankEnd = next;
      return;
    }
    if (this.blankEnd >= 0) {
      const continues = /^\s/.test(line) || (this.lastBlockList && LIST_MARKER.test(line));
      if (!continues) this.emit(out, text, this.blankEnd, { join: "block" });
      else if (this.lastBlockList) this.block = "list";
      this.blankEnd = -1;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      // A fence in a list item belongs to the item: it is never cut apart from it.
      this.fence = { marker: open[2], lang: open[3] ?? "", top: open[1] === "" && this.block !== "list", lines: 0 };
      this.block = "other";
      return;
    }
    if (this.block === "none") {
      this.block = LIST_MARKER.test(line) ? "list" : NOT_PARAGRAPH.test(line) ? "other" : "para";
      this.paraLines = 0;
    }
    if (this.block !== "para") return;
    if (NOT_PARAGRAPH.test(line) || LIST_MARKER.test(line)) {
      this.block = "other";
      return;
    }
    // The last complete line stays in the tail: a line under it may still make it a heading or a table.
    if (++this.paraLines > SOFT_CUT_LINES && inlineClosed(text.slice(this.cut, start))) {
      this.emit(out, text, start, { join: "soft" });
      this.paraLines = 1;
    }
  }
}
