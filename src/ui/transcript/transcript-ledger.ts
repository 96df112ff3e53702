import { isFinalStatus, type SessionState, type ToolCallView, type TranscriptItem } from "../../session/state.js";

/** Terminal ids a tool call shows: the one it was tied to, and any in its content. */
export function toolTerminalIds(tool: ToolCallView): string[] {
  const ids = tool.terminalId ? [tool.terminalId] : [];
  for (const c of tool.content) if (c.type === "terminal" && !ids.includes(c.terminalId)) ids.push(c.terminalId);
  return ids;
}

function turnEnded(state: SessionState, turnId: string | undefined): boolean {
  if (turnId === undefined) return true;
  const turn = state.turns.find((t) => t.id === turnId);
  return !turn || turn.endedAt !== undefined;
}

/** Whether a tool call can still change what it shows: not final, or a terminal of its still running. */
export function toolIsOpen(state: SessionState, tool: ToolCallView): boolean {
  // conch closed it itself (rejected, cancelled, stalled, interrupted): a pane that never exits changes nothing.
  if (tool.localStatus) return false;
  // Running on in the agent's own session after its turn: shown so, it must not hold the transcript.
  if (tool.detached) return false;
  if (!isFinalStatus(tool)) return true;
  // A terminal whose exit never comes must not pin the card forever once the session is idle.
  if (state.phase === "idle" || state.phase === "failed") return false;
  return toolTerminalIds(tool).some((id) => {
    const t = state.terminals[id];
    return t !== undefined && !t.exited;
  });
}

/**
 * Whether an item can no longer change, so it may be printed once into the scrollback (Ink's
 * `<Static>`). Dividers, prompts and notices never change. Text can only grow while it is the last
 * item of an open turn. A plan is replaced in place until its turn ends. A tool call changes until
 * it is final and its terminal stopped; late updates often follow the final status, so it also waits
 * for something after it or for its turn to end.
 */
export function isSettled(state: SessionState, index: number): boolean {
  const item = state.items[index];
  const last = index === state.items.length - 1;
  switch (item.kind) {
    case "turn":
    case "user":
    case "notice":
    case "unknown":
      return true;
    case "agent":
    case "thought":
      return !last || turnEnded(state, item.turnId);
    case "plan":
      return turnEnded(state, item.turnId);
    case "tool": {
      const tool = state.toolCalls[item.toolCallId];
      if (!tool) return true;
      if (toolIsOpen(state, tool)) return false;
      return !last || turnEnded(state, item.turnId) || state.phase === "idle";
    }
  }
}

/** The transcript split for drawing: what to print once (in the order it settled) and what is still live. */
export interface TranscriptSplit {
  /** Settled items since the last clear, oldest first; only ever grows (until `clear`). */
  printed: TranscriptItem[];
  /** Items that may still change, in transcript order. */
  live: TranscriptItem[];
  /** Settled items left for the next batch: a long history is printed a batch a frame. */
  more: boolean;
}

/**
 * Items printed per update. A resumed session of thousands of items is printed in batches, a
 * frame each, so the prompt answers keys while the history is still being drawn.
 */
export const PRINT_BATCH = 150;

/**
 * Remembers which items went to the scrollback. Items settle one by one, possibly out of
 * transcript order (a background command can run for an hour while the conversation goes on), so
 * each is printed when it settles rather than holding everything after it in the live region.
 */
export class TranscriptLedger {
  private readonly printedIds = new Set<string>();
  /** Every item before this index is printed. */
  private scanFrom = 0;
  private printed: TranscriptItem[] = [];

  /** Moves newly settled items (at most `batch`) to the printed list and returns the split. */
  update(state: SessionState, batch = PRINT_BATCH): TranscriptSplit {
    const { items } = state;
    const live: TranscriptItem[] = [];
    let grown: TranscriptItem[] | undefined;
    let budget = batch;
    let more = false;
    for (let i = this.scanFrom; i < items.length; i++) {
      const item = items[i];
      if (this.printedIds.has(item.id)) continue;
      if (isSettled(state, i)) {
        // Past the batch, settled items wait (unseen) for the next frame rather than crowd the live region.
        if (budget <= 0) {
          more = true;
          continue;
        }
        budget--;
        this.printedIds.add(item.id);
        (grown ??= [...this.printed]).push(item);
      } else if (!more) {
        live.push(item);
      }
    }
    while (this.scanFrom < items.length && this.printedIds.has(items[this.scanFrom].id)) this.scanFrom++;
    if (grown) this.printed = grown;
    return { printed: this.printed, live, more };
  }

  /** Forgets what was printed on screen (after clearing it); those items are not printed again. */
  clear(): void {
    this.printed = [];
  }
}
