import { sameObjects, terminalViewsOf } from "../../session/profiles/display-of.js";
import type { SessionState, TerminalView, ToolCallView, TranscriptItem } from "../../session/state.js";
import type { Terminal } from "../../terminals/terminal.js";
import { stableMarkdownRows, type MarkdownMemo } from "../render/markdown-rows.js";
import { itemRows } from "../render/item-rows.js";

/** How items are drawn this frame. */
export interface RowOptions {
  width: number;
  expanded: boolean;
  terminal?: (id: string) => Terminal | undefined;
  /** Spinner frame and clock, for running calls in the live region. */
  frame?: number;
  now?: number;
  /** File paths become links (OSC 8). */
  links?: boolean;
}

interface Entry {
  item: TranscriptItem;
  tool?: ToolCallView;
  /** What a card shows besides its call: its terminals' views, and whether a permission waits for it. */
  terminals: (TerminalView | undefined)[];
  awaiting: boolean;
  width: number;
  expanded: boolean;
  rows: string[];
}

/**
 * Rows of transcript items, kept per item while nothing it shows changed: a frame draws only what
 * changed. A streaming message also keeps the rows of its finished blocks (its markdown memo).
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
    return itemRows(item, { state, width: opts.width, expanded: opts.expanded, terminal: opts.terminal, links: opts.links, memo });
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
    const tool = item.kind === "tool" ? state.toolCalls[item.toolCallId] : undefined;
    const animated =
      tool !== undefined &&
      (tool.status === "in_progress" || (tool.terminalId !== undefined && opts.terminal?.(tool.terminalId) !== undefined));
    const hit = this.entries.get(item.id);
    const terminals = tool ? terminalViewsOf(state, tool) : [];
    const awaiting = tool !== undefined && state.permissions.some((p) => p.toolCallId === tool.toolCallId);
    if (
      hit &&
      !animated &&
      hit.item === item &&
      hit.tool === tool &&
      hit.width === opts.width &&
      hit.expanded === opts.expanded &&
      hit.awaiting === awaiting &&
      sameObjects(hit.terminals, terminals)
    ) {
      return hit.rows;
    }
    let memo = this.memos.get(item.id);
    if (!memo && item.kind === "agent") this.memos.set(item.id, (memo = {}));
    const rows = itemRows(item, {
      state,
      width: opts.width,
      expanded: opts.expanded,
      terminal: opts.terminal,
      frame: opts.frame,
      now: opts.now,
      live,
      memo,
      links: opts.links,
    });
    this.entries.set(item.id, { item, tool, terminals, awaiting, width: opts.width, expanded: opts.expanded, rows });
    return rows;
  }

  /** Forgets items no longer live. */
  keepOnly(ids: Set<string>): void {
    for (const id of this.entries.keys()) if (!ids.has(id)) this.entries.delete(id);
    for (const id of this.memos.keys()) if (!ids.has(id)) this.memos.delete(id);
  }
}
