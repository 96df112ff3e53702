import type { SessionState } from "../../session/state.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";
import { cardPaneSize } from "../render/card-pane.js";
import { toolTerminalIds } from "./settled-items.js";

/** Rows of a pane for a running client terminal that no tool call shows. */
export const LOOSE_PANE_ROWS = 6;

/** Running client terminals that no tool call in the session shows (the user's own commands have their card): each gets a pane of its own. */
export function looseTerminals(state: SessionState): { id: string; title: string }[] {
  const running = Object.values(state.terminals).filter((t) => t.source === "client" && !t.exited && t.by !== "user");
  // Asked every frame: the calls of a long session are only looked through when a terminal runs.
  if (running.length === 0) return [];
  const shown = new Set<string>();
  for (const tool of Object.values(state.toolCalls)) for (const id of toolTerminalIds(tool)) shown.add(id);
  return running.filter((t) => !shown.has(t.terminalId)).map((t) => ({ id: t.terminalId, title: t.command ?? t.terminalId }));
}

/**
 * Gives each running terminal the size it is drawn at, so a program formats its output for the
 * pane: inside a tool card (two cells of indent, two of border), a pane of its own (two of border),
 * or the focused pane. A finished command's screen is history: it is not reflowed; nor is the
 * screen of a command run by another conch, rebuilt from its log at the size it had.
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
    // A command another conch ran (attach, resume): its log says the size its output was laid out for.
    if (view.source === "client" && terminal.kind !== "client") continue;
    const focused = focus?.id === view.terminalId;
    const own = focused || loose.has(view.terminalId);
    const card = cardPaneSize(width);
    const cols = own ? Math.max(1, width - 2) : card.cols;
    const rows = focused ? focus.rows : own ? LOOSE_PANE_ROWS : card.rows;
    if (terminal.screen.cols !== cols || terminal.screen.rows !== rows) terminal.resize(cols, rows);
  }
}
