// The size of a command's pane in a tool card: what the card draws, and what a command started for
// it is sized to before the card is first drawn (no other import: the CLI asks it at startup).

/** Rows of a running terminal's pane. */
export const LIVE_TERMINAL_ROWS = 10;

/** The size of a terminal's pane inside a tool card (two cells of indent, two of border) on a screen `width` wide. */
export function cardPaneSize(width: number): { cols: number; rows: number } {
  return { cols: Math.max(1, width - 4), rows: LIVE_TERMINAL_ROWS };
}
