import type { SessionState, TerminalView, ToolCallView, TranscriptItem } from "../../session/state.js";
import type { ToolCardView } from "./item-view.js";

type ShellItem = Extract<TranscriptItem, { kind: "shell" }>;

const calls = new WeakMap<TerminalView, ToolCallView>();

/**
 * The user's own command drawn as a command card, so its pane, its clipping and its exit read as an
 * agent's command does: a call made up from its terminal (the same object while the terminal's view
 * is), marked as the user's.
 */
export function shellCardViewOf(state: SessionState, item: ShellItem): ToolCardView | undefined {
  const term = state.terminals[item.terminalId];
  if (!term) return undefined;
  let call = calls.get(term);
  if (!call) {
    const status = !term.exited ? "in_progress" : term.exitCode === 0 ? "completed" : "failed";
    call = {
      toolCallId: `shell:${term.terminalId}`,
      turnId: item.turnId ?? "",
      title: item.command,
      kind: "execute",
      status,
      content: [{ type: "terminal", terminalId: term.terminalId }],
      locations: [],
      meta: {},
      history: item.history,
      lastSeq: 0,
      startedAt: term.startedAt ?? 0,
      ...(term.endedAt !== undefined ? { endedAt: term.endedAt } : {}),
    };
    calls.set(term, call);
  }
  return {
    call,
    display: { title: item.command, blocks: [{ type: "terminal", terminalId: term.terminalId }] },
    terminals: { [term.terminalId]: term },
    awaiting: false,
    cwd: state.info?.cwd,
    by: "user",
  };
}
