import type { SessionState } from "../../session/state.js";
import { paneRows } from "../render/pane-rows.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";
import { LOOSE_PANE_ROWS, looseTerminals } from "./pane-sizes.js";

/** The panes of running terminals no tool call shows, each after a blank row, drawn below the live items. */
export function loosePaneRows(state: SessionState, access: TerminalAccess | undefined, width: number, now: number): string[] {
  return looseTerminals(state).flatMap((p) => {
    const t = access?.get(p.id);
    return t
      ? ["", ...paneRows(t, { rows: LOOSE_PANE_ROWS, width, title: p.title, elapsedMs: now - (state.terminals[p.id]?.startedAt ?? now) })]
      : [];
  });
}
