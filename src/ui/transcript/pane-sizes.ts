import type { SessionState } from "../../session/state.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";
import { LIVE_TERMINAL_ROWS } from "../render/tool-card-rows.js";
import { toolTerminalIds } from "./settled-items.js";

/** Rows of a pane for a running client terminal that no tool call shows. */
export const LOOSE_PANE_ROWS = 6;

/** Running client terminals that no tool call in the session shows (the user's own commands have their card): each gets a pane of its own. */
export function looseTerminals(state: SessionState): { id: string; title: string }[] {
  const shown = new Set<string>();
  for (const tool of Object.values(state.toolCalls)) for (const id of toolTerminalIds(tool)) shown.add(id);
  return Object.values(state.terminals)
    .filter((t) => t.source === "client" && !t.exited && t.by !== "user" && !shown.has(t.terminalId))
    .map((t) => ({ id: t.terminalId, title: t.command ?? t.terminalId }));
}

/**
 * Gives each running terminal the size it is drawn at, so a program formats its output for the
 * pane: inside a tool card (two cells of indent, two of border), a pane of its own (two of border),
 * or the focused pane. A finished command's screen is history: it is not reflowed.
 */
export function sizeRunningTerminals(
  state: SessionState,
  access: TerminalAccess | undefined,
  width: number,
  focus: { id: string; rows: number } | undefined,
): void {
  if (!access) return;
  const loose = new Set(looseTerminals(state).map((t) => t.id));
  for (const view of Object.values(state.terminals)) {
    if (view.exited) continue;
    const terminal = access.get(view.terminalId);
    if (!terminal || terminal.exitStatus) continue;
    const focused = focus?.id === view.terminalId;
    const own = focused || loose.has(view.terminalId);
    const cols = Math.max(1, own ? width - 2 : width - 4);
    const rows = focused ? focus.rows : own ? LOOSE_PANE_ROWS : LIVE_TERMINAL_ROWS;
    if (terminal.screen.cols !== cols || terminal.screen.rows !== rows) terminal.resize(cols, rows);
  }
}
