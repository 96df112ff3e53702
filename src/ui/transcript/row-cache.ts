import type { SessionState, TranscriptItem } from "../../session/state.js";
import type { DrawContext } from "../render/draw-context.js";
import { stableMarkdownRows, type MarkdownMemo } from "../render/markdown-rows.js";
import { itemRows } from "../render/item-rows.js";
import { itemViewOf, type ItemView } from "../render/item-view.js";

/** How items are drawn this frame: the row renderers' options, with the expanded setting always said. */
export type RowOptions = Omit<DrawContext, "rawJson"> & { expanded: boolean };

interface Entry {
  /** What the item showed when its rows were drawn: the same view means the same rows. */
  view: ItemView;
  width: number;
  expanded: boolean;
  rows: string[];
}

/**
 * Rows of transcript items, kept per item while its view (`itemViewOf`) is the same object: a
 * frame draws only what changed. A streaming message also keeps the rows of its finished blocks (its markdown memo).
 * Items with a running terminal pane are drawn every time: their screen changes without the state.
 */
export class RowCache {
  private entries = new Map<string, Entry>();
  private memos = new Map<string, MarkdownMemo>();

  /** Rows of an item that is still live (may change). */
  live(item: TranscriptItem, state: SessionState, opts: RowOptions): string[] {
    return this.rows(item, state, opts, true);
  }

  /**
   * Rows of a settled item, for the scrollback; nothing is kept (it is printed once). A message
   * drawn while it streamed is finished with the same segments, so its rows already printed hold.
   */
  settled(item: TranscriptItem, state: SessionState, opts: RowOptions): string[] {
    const memo = this.memos.get(item.id);
    this.memos.delete(item.id);
    this.entries.delete(item.id);
    return itemRows(itemViewOf(state, item), {
      width: opts.width,
      expanded: opts.expanded,
      terminal: opts.terminal,
      links: opts.links,
      memo,
    });
  }

  /**
   * The rows of a streaming message that can no longer change (its stable segments), to print
   * before the message is over; none for an item that is not a message.
   */
  stable(item: TranscriptItem, width: number): readonly string[] {
    if (item.kind !== "agent") return [];
    let memo = this.memos.get(item.id);
    if (!memo) this.memos.set(item.id, (memo = {}));
    return stableMarkdownRows(item.text, width, memo);
  }

  private rows(item: TranscriptItem, state: SessionState, opts: RowOptions, live: boolean): string[] {
    const view = itemViewOf(state, item);
    const tool = view.card?.call;
    const animated =
      tool !== undefined &&
      (tool.status === "in_progress" || (tool.terminalId !== undefined && opts.terminal?.(tool.terminalId) !== undefined));
    const hit = this.entries.get(item.id);
    if (hit && !animated && hit.view === view && hit.width === opts.width && hit.expanded === opts.expanded) return hit.rows;
    let memo = this.memos.get(item.id);
    if (!memo && item.kind === "agent") this.memos.set(item.id, (memo = {}));
    const rows = itemRows(view, {
      width: opts.width,
      expanded: opts.expanded,
      terminal: opts.terminal,
      frame: opts.frame,
      now: opts.now,
      live,
      memo,
      links: opts.links,
    });
    this.entries.set(item.id, { view, width: opts.width, expanded: opts.expanded, rows });
    return rows;
  }

  /** Whether a message keeps its streaming memo: it must be finished from it (see `settled`). */
  hasMemo(id: string): boolean {
    return this.memos.has(id);
  }

  /** Forgets items no longer live. */
  keepOnly(ids: Set<string>): void {
    for (const id of this.entries.keys()) if (!ids.has(id)) this.entries.delete(id);
    for (const id of this.memos.keys()) if (!ids.has(id)) this.memos.delete(id);
  }
}
