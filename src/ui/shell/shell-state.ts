import type { UndoPlan } from "../../orchestrator/turn-undo.js";
import type { SessionState } from "../../session/state.js";
import type { Focus } from "./key-bindings.js";

/** A message panel under the input (command output, help). */
export interface Panel {
  lines: string[];
  tone: "info" | "error";
}

/** The shell's view state: everything the UI keeps that is not the session's. */
export interface ShellState {
  /** The queued message selected with ↑ (the queue has the keys), or null. */
  queueSelected: number | null;
  /** The queued message whose text is in the editor, or null. */
  editingQueuedId: string | null;
  /** The terminal pane that has the keys, and how far it is scrolled up. */
  terminalFocus: { id: string; scroll: number } | null;
  /** The permission request the user stepped away from with Tab (the input has the keys meanwhile). */
  permissionSkipped: string | null;
  panel: Panel | null;
  /** Notes under the input: how the last message's attachments went. */
  notes: string[];
  /** Ctrl-C was pressed once: the next one quits. */
  ctrlCArmed: boolean;
  /** What `/undo` will do, waiting for y or n. */
  undo: UndoPlan | null;
}

/** What can happen to the shell's view state. */
export type ShellAction =
  | { type: "panel-shown"; panel: Panel }
  | { type: "messages-cleared" }
  | { type: "notes-set"; notes: string[] }
  | { type: "queue-selected"; index: number | null }
  | { type: "queue-edit-started"; id: string }
  | { type: "queue-edit-ended" }
  | { type: "terminal-focused"; id: string }
  | { type: "terminal-left" }
  | { type: "terminal-scrolled"; by: number }
  | { type: "permission-skipped"; key: string }
  | { type: "permission-returned" }
  | { type: "ctrl-c-armed" }
  | { type: "ctrl-c-disarmed" }
  | { type: "undo-asked"; plan: UndoPlan }
  | { type: "undo-closed" };

/** The shell as it starts. */
export const INITIAL_SHELL: ShellState = {
  queueSelected: null,
  editingQueuedId: null,
  terminalFocus: null,
  permissionSkipped: null,
  panel: null,
  notes: [],
  ctrlCArmed: false,
  undo: null,
};

/** The shell's view state after an action. Pure. */
export function shellReducer(state: ShellState, action: ShellAction): ShellState {
  switch (action.type) {
    case "panel-shown":
      return { ...state, panel: action.panel };
    case "messages-cleared":
      return state.panel || state.notes.length ? { ...state, panel: null, notes: [] } : state;
    case "notes-set":
      return { ...state, notes: action.notes };
    case "queue-selected":
      return { ...state, queueSelected: action.index };
    case "queue-edit-started":
      return { ...state, editingQueuedId: action.id, queueSelected: null };
    case "queue-edit-ended":
      return { ...state, editingQueuedId: null };
    case "terminal-focused":
      return { ...state, terminalFocus: { id: action.id, scroll: 0 } };
    case "terminal-left":
      return { ...state, terminalFocus: null };
    case "terminal-scrolled":
      return state.terminalFocus ? { ...state, terminalFocus: { ...state.terminalFocus, scroll: Math.max(0, state.terminalFocus.scroll + action.by) } } : state;
    case "permission-skipped":
      return { ...state, permissionSkipped: action.key };
    case "permission-returned":
      return { ...state, permissionSkipped: null };
    case "ctrl-c-armed":
      return { ...state, ctrlCArmed: true };
    case "ctrl-c-disarmed":
      return state.ctrlCArmed ? { ...state, ctrlCArmed: false } : state;
    case "undo-asked":
      return { ...state, undo: action.plan, panel: null };
    case "undo-closed":
      return state.undo ? { ...state, undo: null } : state;
  }
}

/**
 * Who has the keys: a focused terminal pane while its command runs, then the undo prompt, a selected queued
 * message, then the first permission request (unless the user stepped away from it), a question,
 * a login, and otherwise the input.
 */
export function focusOf(shell: ShellState, session: SessionState, runningTerminals: readonly string[]): Focus {
  if (shell.terminalFocus && runningTerminals.includes(shell.terminalFocus.id)) return "terminal";
  if (shell.undo) return "undo";
  if (shell.queueSelected !== null && session.queue.length > 0) return "queue";
  const firstPermission = session.permissions[0]?.key;
  if (firstPermission !== undefined && firstPermission !== shell.permissionSkipped) return "permission";
  if (session.questions.length > 0) return "question";
  if (session.phase === "auth" && session.auth) return "auth";
  return "input";
}
