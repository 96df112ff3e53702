import type { SessionState, TranscriptItem } from "../../session/state.js";
import { isSettled } from "./settled-items.js";
import { PROMPT_MARK } from "../tty/terminal-features.js";

/** What to draw this frame. */
export interface PrintPlan {
  /** Rows to write to the terminal's scrollback now, in transcript order. */
  rows: string[];
  /** Items drawn live: everything from the first item that may still change. */
  live: TranscriptItem[];
  /**
   * While a long backlog is being written in slices: the newest settled rows, drawn live at the
   * bottom so the latest screenful is there at once; empty when nothing is left to write.
   */
  preview: string[];
  /** Rows are left to write: ask again in the next slice. */
  more: boolean;
}

/** A blank row before each item except a prompt (it follows its turn's divider). */
function spaced(item: TranscriptItem): boolean {
  return item.kind !== "user";
}

/**
 * Writes the transcript to the terminal's scrollback in transcript order: an item is printed once
 * every item before it is settled, so nothing is printed out of order; what may still change is
 * drawn live below. A long backlog (a resumed session, a reprint after a resize) goes out in slices
 * of `budgetMs`, so keys are handled between them.
 */
export class TranscriptPrinter {
  /** Items before this index are in the scrollback. */
  private printed = 0;

  /** OSC 133 marks around prompts and answers, for a terminal that jumps between them. */
  marks = false;
  /** The last item written was part of an answer (the D mark goes before the next divider). */
  private inAnswer = false;

  /**
   * The message streaming at the head of the live items, when the rows it can no longer change
   * (its stable segments) are printed already: how many. The rest follows as it settles.
   */
  private partial?: { id: string; rows: number };

  /**
   * Rows drawn for the preview, kept until the item is printed: the preview is drawn again every
   * slice of a backlog, and a settled item (the same object, at the same width) draws the same rows.
   */
  private drawn = new WeakMap<TranscriptItem, { width: number; rows: string[] }>();

  constructor(
    private readonly rowsOf: (item: TranscriptItem, width: number) => string[],
    private readonly now: () => number = () => performance.now(),
    private readonly stableOf?: (item: TranscriptItem, width: number) => readonly string[],
    /** A settled item that is not ready to print yet: its pane's last output is still being parsed. */
    private readonly holds: (item: TranscriptItem, state: SessionState) => boolean = () => false,
  ) {}

  /** How many of a live item's rows are in the scrollback already (the stable part of a streaming message). */
  printedRowsOf(item: TranscriptItem): number {
    return this.partial?.id === item.id ? this.partial.rows : 0;
  }

  /** An item's rows as they go to the scrollback: with the prompt marks, when the terminal takes them. */
  private printedRows(item: TranscriptItem, width: number): string[] {
    const kept = this.drawn.get(item);
    this.drawn.delete(item);
    const rows = kept?.width === width ? kept.rows : this.rowsOf(item, width);
    if (!this.marks || rows.length === 0) return rows;
    if (item.kind === "user" && !item.internal) {
      this.inAnswer = true;
      const out = [...rows];
      out[0] = PROMPT_MARK.start + out[0];
      out[out.length - 1] += PROMPT_MARK.end;
      return out;
    }
    if (item.kind === "turn" && this.inAnswer) {
      this.inAnswer = false;
      return [PROMPT_MARK.outputEnd + rows[0], ...rows.slice(1)];
    }
    return rows;
  }

  /** Start over: the screen was cleared to print everything again (a resize). */
  reset(): void {
    this.printed = 0;
    this.partial = undefined;
    this.drawn = new WeakMap();
  }

  /** Everything settled so far counts as printed, without printing it (after /clear). */
  skip(state: SessionState): void {
    this.printed = this.settledEnd(state);
  }

  /** How many settled items wait to be printed. */
  waiting(state: SessionState): number {
    return this.settledEnd(state) - this.printed;
  }

  /** The settled prefix's end last found, for the state it was found in (a backlog plans many slices of one state). */
  private settled?: { state: SessionState; end: number };

  /** Index after the last item of the settled prefix that starts at the printed mark. */
  private settledEnd(state: SessionState): number {
    const known = this.settled?.state === state ? this.settled.end : this.printed;
    let end = Math.max(this.printed, known);
    while (end < state.items.length && isSettled(state, end) && !this.holds(state.items[end], state)) end++;
    this.settled = { state, end };
    return end;
  }

  /**
   * The rows to write now, and what to draw live. Writes settled items until the settled prefix
   * is out or `budgetMs` is spent (0: none, only what to draw); `previewRows` is how many rows the
   * preview may show.
   */
  plan(state: SessionState, width: number, budgetMs: number, previewRows: number): PrintPlan {
    const end = this.settledEnd(state);
    const rows: string[] = [];
    const deadline = this.now() + budgetMs;
    while (this.printed < end && budgetMs > 0) {
      const item = state.items[this.printed];
      const done = this.printedRowsOf(item);
      if (spaced(item) && done === 0) rows.push("");
      const all = this.printedRows(item, width);
      rows.push(...(done > 0 ? all.slice(done) : all));
      if (done > 0) this.partial = undefined;
      this.printed++;
      if (this.now() >= deadline) break;
    }
    const more = this.printed < end;
    if (!more && end < state.items.length) this.printStable(state.items[end], width, rows);
    const live = state.items.slice(end);
    return { rows, live, preview: more ? this.previewOf(state, end, width, previewRows) : [], more };
  }

  /**
   * A message still streaming at the head of the live items: what it can no longer change goes to
   * the scrollback now, so a long answer is there to scroll back to, and a frame draws only its tail.
   */
  private printStable(item: TranscriptItem, width: number, rows: string[]): void {
    const stable = this.stableOf?.(item, width) ?? [];
    const done = this.printedRowsOf(item);
    if (stable.length <= done) return;
    if (done === 0 && spaced(item)) rows.push("");
    rows.push(...stable.slice(done));
    this.partial = { id: item.id, rows: stable.length };
  }

  /**
   * Draws the newest item the preview of a backlog would show and has no rows for yet (they are
   * kept for the preview and for its print); false once every item the preview shows is drawn. A
   * backlog's first frame calls it a task at a time, newest first, rather than drawing them all in its render.
   */
  drawPreviewItem(state: SessionState, width: number, max: number): boolean {
    let count = 0;
    for (let i = this.settledEnd(state) - 1; i >= this.printed && count < max; i--) {
      const item = state.items[i];
      const fresh = this.drawn.get(item)?.width !== width;
      const rows = this.keptRows(item, width);
      if (fresh) return true;
      count += rows.length + (spaced(item) ? 1 : 0);
    }
    return false;
  }

  /** The last `max` rows of the settled items before `end`, newest last. */
  private previewOf(state: SessionState, end: number, width: number, max: number): string[] {
    const out: string[][] = [];
    let count = 0;
    for (let i = end - 1; i >= this.printed && count < max; i--) {
      const item = state.items[i];
      const rows = [...(spaced(item) ? [""] : []), ...this.keptRows(item, width)];
      out.push(rows);
      count += rows.length;
    }
    const flat = out.reverse().flat();
    return flat.slice(Math.max(0, flat.length - max));
  }

  /** An item's rows at `width`, drawn once and kept for the preview and for its print. */
  private keptRows(item: TranscriptItem, width: number): string[] {
    let kept = this.drawn.get(item);
    if (kept?.width !== width) this.drawn.set(item, (kept = { width, rows: this.rowsOf(item, width) }));
    return kept.rows;
  }
}
