import React from "react";
import { Box, Static } from "ink";
import type { SessionState, TranscriptItem } from "../../session/state.js";
import type { Terminal } from "../../terminals/terminal.js";
import { TerminalPane } from "../components/terminal-pane.js";
import { TranscriptItemView } from "../components/transcript-item.js";
import { ClippedRegion } from "./clipped-region.js";
import { toolTerminalIds } from "./transcript-ledger.js";

/** Props of the printed transcript. */
export interface PrintedTranscriptProps {
  items: TranscriptItem[];
  state: SessionState;
  width: number;
  expanded: boolean;
}

/**
 * Settled items, each printed once into the terminal's scrollback by Ink's `<Static>` and never
 * redrawn. The parent changes this component's `key` to print them again (after a resize) or to
 * start over (after /clear).
 *
 * Memoized on everything but `state`: any re-render of `<Static>` makes Ink paint at once,
 * bypassing its frame throttle, so it re-renders only when there is something new to print (and
 * then with the state of that moment).
 */
export const PrintedTranscript = React.memo(function PrintedTranscript({ items, state, width, expanded }: PrintedTranscriptProps): React.ReactElement {
  return (
    <Static items={items}>
      {(item) => (
        <Box key={item.id} flexDirection="column" width={width} marginTop={spaced(item) ? 1 : 0}>
          <TranscriptItemView item={item} state={state} width={width} live={false} expanded={expanded} />
        </Box>
      )}
    </Static>
  );
}, (a, b) => a.items === b.items && a.width === b.width && a.expanded === b.expanded);

/** A blank line before each item except a turn's divider and the prompt right under it reads best. */
function spaced(item: TranscriptItem): boolean {
  return item.kind !== "user";
}

/** Props of the live tail. */
export interface LiveTailProps {
  items: TranscriptItem[];
  state: SessionState;
  width: number;
  maxRows: number;
  expanded: boolean;
  terminal?: (id: string) => Terminal | undefined;
  /** Running client terminals no tool call shows, drawn as panes of their own. */
  loosePanes: { id: string; title: string }[];
}

/** Rows of a pane for a terminal no tool call shows. */
const LOOSE_PANE_ROWS = 6;

/** Items still changing, and running terminals, bottom-clipped to fit above the input. */
export function LiveTail({ items, state, width, maxRows, expanded, terminal, loosePanes }: LiveTailProps): React.ReactElement | null {
  const panes = loosePanes.flatMap((p) => {
    const t = terminal?.(p.id);
    return t ? [{ ...p, terminal: t }] : [];
  });
  if (items.length === 0 && panes.length === 0) return null;
  return (
    <ClippedRegion maxRows={maxRows}>
      {items.map((item) => (
        <Box key={item.id} flexDirection="column" width={width} marginTop={spaced(item) ? 1 : 0}>
          <TranscriptItemView item={item} state={state} width={width} live expanded={expanded} terminal={terminal} />
        </Box>
      ))}
      {panes.map((p) => (
        <Box key={p.id} marginTop={1}>
          <TerminalPane terminal={p.terminal} rows={LOOSE_PANE_ROWS} width={width} focused={false} title={p.title} />
        </Box>
      ))}
    </ClippedRegion>
  );
}

/** Running client terminals that no tool call in the session shows. */
export function looseTerminals(state: SessionState): { id: string; title: string }[] {
  const shown = new Set<string>();
  for (const tool of Object.values(state.toolCalls)) for (const id of toolTerminalIds(tool)) shown.add(id);
  return Object.values(state.terminals)
    .filter((t) => t.source === "client" && !t.exited && !shown.has(t.terminalId))
    .map((t) => ({ id: t.terminalId, title: t.command ?? t.terminalId }));
}
