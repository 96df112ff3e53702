import React, { useInsertionEffect, useSyncExternalStore } from "react";
import { Text } from "ink";
import type { SessionState, TranscriptItem } from "../../session/state.js";
import { paint } from "../render/style.js";
import { truncateRow } from "../render/text.js";
import { heldBy, liveRows } from "./live-rows.js";
import type { LiveTail } from "./live-tail.js";

/** Props of the live region. */
export interface LiveRegionProps {
  state: SessionState;
  /** Items that may still change, in transcript order. */
  items: TranscriptItem[];
  rowsOf(item: TranscriptItem): string[];
  /** A live item that goes on from rows already printed: no blank row before it. */
  continued?(item: TranscriptItem): boolean;
  /** Rows drawn after the items (panes of terminals no tool call shows). */
  extra?: string[];
  /** The newest rows of a backlog still being written, shown until the writer reaches them. */
  preview?: string[];
  maxRows: number;
  /** The line that says what is above is cut to it, so it takes one row. */
  width?: number;
}

/**
 * What may still change, from the first unsettled item on, cut to the newest rows that fit: Ink
 * gets one text of at most `maxRows` rows, so a frame costs the screen, not the session. The line
 * above says how much is not shown and what holds it back.
 */
export function LiveRegion({
  state,
  items,
  rowsOf,
  continued,
  extra = [],
  preview = [],
  maxRows,
  width,
}: LiveRegionProps): React.ReactElement | null {
  const budget = Math.max(2, maxRows - extra.length);
  const live = liveRows(items, rowsOf, budget, continued);
  const rows = [...preview.slice(Math.max(0, preview.length - (budget - live.rows.length))), ...live.rows, ...extra];
  if (rows.length === 0) return null;
  let header: string | undefined;
  if (live.hidden > 0) {
    const by = heldBy(state, items);
    header = paint(
      `⋮ ${live.hidden} more line${live.hidden === 1 ? "" : "s"} above${by ? ` · printed once ${by} is done` : " (printed in full when done)"}`,
      { dim: true },
    );
  }
  const top = header && width !== undefined ? truncateRow(header, width) : header;
  return <Text>{(top ? [top, ...rows] : rows).join("\n")}</Text>;
}

/** Props of the live region that draws its own text-only frames. */
export interface LiveTailRegionProps extends LiveRegionProps {
  tail: LiveTail;
  /** Writes the rows the frame printed to the scrollback, before the frame is drawn. */
  flush(): void;
}

/**
 * The live region, which also draws the frames `tail` is shown (a newer state than the App's, whose
 * only change is text on the newest item) by rendering alone: the App is not rendered, laid out
 * or drawn again for them. A render of the App draws a state at least as new.
 */
export function LiveTailRegion({ tail, flush, ...props }: LiveTailRegionProps): React.ReactElement | null {
  const own = useSyncExternalStore(tail.subscribe, tail.current);
  // As the App's own commit does: rows printed for this frame reach the scrollback before it is drawn.
  useInsertionEffect(flush);
  const newer = own !== undefined && own.state.seq > props.state.seq;
  return newer ? <LiveRegion {...props} {...own} /> : <LiveRegion {...props} />;
}
