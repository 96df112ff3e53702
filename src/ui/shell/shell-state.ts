import type { UndoPlan } from "../../session/undo-plan.js";
import type { SessionState } from "../../session/state.js";
import type { PastedImage } from "../compose/prompt-blocks.js";
import type { Focus } from "./key-bindings.js";
import { movedPicker, typedPicker, type PickerState } from "../decisions/picker-state.js";

/** A message panel under the input (command output, help). */
export interface Panel {
  lines: string[];
  tone: "info" | "error";
}

/** The search view (Ctrl-R, /search): what is searched for, which hit is shown, how far its item is scrolled. */
export interface SearchState {
  query: string;
  /** The hit shown (its `hitKey`); null follows the newest. */
  selected: string | null;
  /** Rows the shown item is scrolled from where the hit puts it (negative: up). */
  scroll: number;
}

/** The tasks view (Ctrl-O, /tasks): the task selected, a stop waiting for y, the task whose whole pane is shown. */
export interface TasksViewState {
  selected: number;
  confirming: string | null;
  opened: string | null;
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
  /** The search view, while it is open. */
  search: SearchState | null;
  /** The tasks view, while it is open. */
  tasks: TasksViewState | null;
  /** Images pasted into the message being written; they go with it while their labels are in its text. */
  images: PastedImage[];
  /** Outputs of the user's own commands attached to the message being written, likewise by label. */
  outputs: { label: string; terminalId: string }[];
  /** A list to pick from (/model, /config), while it is open. */
  picker: PickerState | null;
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
  | { type: "undo-closed" }
  /** `selected`: the hit to show (a task's card), else the newest. */
  | { type: "search-opened"; query: string; selected?: string }
  | { type: "search-edited"; query: string }
  /** Keys typed into the query: text, where a backspace (DEL or BS) erases the character before it. */
  | { type: "search-typed"; keys: string }
  | { type: "search-selected"; key: string }
  | { type: "search-scrolled"; by: number }
  | { type: "search-closed" }
  | { type: "tasks-opened" }
  | { type: "tasks-selected"; index: number }
  | { type: "task-stop-asked"; taskId: string | null }
  | { type: "task-pane-toggled"; taskId: string }
  | { type: "tasks-closed" }
  /** Ctrl-C: the undo prompt, the search, the tasks view and a picker close. */
  | { type: "views-closed" }
  | { type: "image-pasted"; image: PastedImage }
  | { type: "output-attached"; label: string; terminalId: string }
  /** The message went (or was thrown away): its images and outputs go with it. */
  | { type: "images-cleared" }
  | { type: "picker-opened"; picker: PickerState }
  | { type: "picker-moved"; by: number }
  /** Keys typed into the filter, a backspace erasing. */
  | { type: "picker-typed"; keys: string }
  | { type: "picker-closed" };

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
  search: null,
  tasks: null,
  images: [],
  outputs: [],
  picker: null,
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
      return state.terminalFocus
        ? { ...state, terminalFocus: { ...state.terminalFocus, scroll: Math.max(0, state.terminalFocus.scroll + action.by) } }
        : state;
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
    case "search-opened":
      return { ...state, search: { query: action.query, selected: action.selected ?? null, scroll: 0 } };
    case "search-edited":
      // A new query starts again from the newest hit.
      return state.search ? { ...state, search: { query: action.query, selected: null, scroll: 0 } } : state;
    case "search-typed": {
      if (!state.search) return state;
      const chars = [...state.search.query];
      for (const ch of action.keys.replace(/[\r\n]+/g, " ")) {
        if (ch === "\x7f" || ch === "\b") chars.pop();
        else if (!/[\u0000-\u001f]/.test(ch)) chars.push(ch);
      }
      const query = chars.join("");
      return query === state.search.query ? state : { ...state, search: { query, selected: null, scroll: 0 } };
    }
    case "search-selected":
      return state.search ? { ...state, search: { ...state.search, selected: action.key, scroll: 0 } } : state;
    case "search-scrolled":
      return state.search ? { ...state, search: { ...state.search, scroll: state.search.scroll + action.by } } : state;
    case "search-closed":
      return state.search ? { ...state, search: null } : state;
    case "tasks-opened":
      return { ...state, panel: null, notes: [], tasks: { selected: 0, confirming: null, opened: null } };
    case "tasks-selected":
      return state.tasks ? { ...state, tasks: { selected: Math.max(0, action.index), confirming: null, opened: null } } : state;
    case "task-stop-asked":
      return state.tasks ? { ...state, tasks: { ...state.tasks, confirming: action.taskId } } : state;
    case "task-pane-toggled":
      return state.tasks
        ? { ...state, tasks: { ...state.tasks, opened: state.tasks.opened === action.taskId ? null : action.taskId } }
        : state;
    case "tasks-closed":
      return state.tasks ? { ...state, tasks: null } : state;
    case "views-closed":
      return state.undo || state.search || state.tasks || state.picker
        ? { ...state, undo: null, search: null, tasks: null, picker: null }
        : state;
    case "image-pasted":
      return { ...state, images: [...state.images, action.image] };
    case "output-attached":
      return {
        ...state,
        outputs: [...state.outputs.filter((o) => o.label !== action.label), { label: action.label, terminalId: action.terminalId }],
      };
    case "images-cleared":
      return state.images.length || state.outputs.length ? { ...state, images: [], outputs: [] } : state;
    case "picker-opened":
      return { ...state, picker: action.picker, panel: null };
    case "picker-moved":
      return state.picker ? { ...state, picker: movedPicker(state.picker, action.by) } : state;
    case "picker-typed":
      return state.picker ? { ...state, picker: typedPicker(state.picker, action.keys) } : state;
    case "picker-closed":
      return state.picker ? { ...state, picker: null } : state;
  }
}

/**
 * Who has the keys: a focused terminal pane while its command runs, then the undo prompt, a picker, the search
 * view, the tasks view, a selected queued message, then the first permission request (unless the user stepped away from it), a question,
 * a login, and otherwise the input.
 */
export function focusOf(shell: ShellState, session: SessionState, runningTerminals: readonly string[]): Focus {
  if (shell.terminalFocus && runningTerminals.includes(shell.terminalFocus.id)) return "terminal";
  if (shell.undo) return "undo";
  if (shell.picker) return "picker";
  if (shell.search) return "search";
  if (shell.tasks) return "tasks";
  if (shell.queueSelected !== null && session.queue.length > 0) return "queue";
  const firstPermission = session.permissions[0]?.key;
  if (firstPermission !== undefined && firstPermission !== shell.permissionSkipped) return "permission";
  if (session.questions.length > 0) return "question";
  if (session.phase === "auth" && session.auth) return "auth";
  return "input";
}
