import type { UndoPlan } from "../../session/undo-plan.js";
import type { SessionState } from "../../session/state.js";
import type { SessionPort } from "../session-port.js";
import type { PickerState } from "../decisions/picker-state.js";

/** What conch's own commands may do to the view and the session. */
export interface CommandContext {
  port: SessionPort;
  state: SessionState;
  /** Shows a message panel under the input until the next prompt. */
  show(lines: string | string[], tone?: "info" | "error"): void;
  clearScreen(): void;
  toggleExpanded(): boolean;
  restart(): void;
  quit(): void;
  /** The saved sessions as a table, when the app can read them. */
  listSessions?: () => Promise<string>;
  /** Shows what an undo will put back and asks before it does. */
  askUndo?(plan: UndoPlan): void;
  /** Opens the search view with a query (/search). */
  openSearch?(query: string): void;
  /** Opens the tasks view (/tasks). */
  openTasks?(): void;
  /** Attaches the clipboard's image to the message being written (/paste-image). */
  pasteImage?(): void;
  /** Opens a list to pick from (/model, /config), where the app has one. */
  openPicker?(picker: PickerState): void;
}
