import type { Key } from "ink";

// The key table's vocabulary: key-bindings.ts is the table, made of input-keys.ts and view-keys.ts.

/** Who has the keys (`focusOf`). */
export type Focus = "input" | "queue" | "permission" | "question" | "auth" | "terminal" | "undo" | "search" | "tasks" | "picker";

/** Where a key works: a focus, the input's `/` or `@` menu, or `conch attach`'s read-only view. */
export type KeyPlace = Focus | "menu" | "attach";

/** What a key does, by name: the shell and the views act on these; /help, the hints and the README are made from the table. */
export type KeyCommand =
  | "send"
  | "steer"
  | "newline"
  | "history"
  | "edit-line"
  | "slash-menu"
  | "mention"
  | "move-selection"
  | "menu-complete"
  | "menu-enter"
  | "menu-close"
  | "cancel"
  | "detach"
  | "cycle-mode"
  | "focus-terminal"
  | "leave-terminal"
  | "scroll-terminal"
  | "type-terminal"
  | "select-queued"
  | "edit-queued"
  | "remove-queued"
  | "leave-queue"
  | "confirm-option"
  | "answer-permission"
  | "skip-permission"
  | "return-to-permission"
  | "next-field"
  | "toggle-choice"
  | "type-answer"
  | "submit-question"
  | "link-done"
  | "decline-question"
  | "choose-login"
  | "confirm-undo"
  | "external-editor"
  | "paste-image"
  | "search"
  | "search-older"
  | "search-newer"
  | "scroll-search"
  | "edit-search"
  | "leave-search"
  | "quit-attach"
  | "tasks"
  | "open-task"
  | "stop-task"
  | "confirm-stop"
  | "find-task-card"
  | "attach-task-output"
  | "leave-tasks"
  | "pick-choice"
  | "filter-choices"
  | "close-picker"
  | "clear-input";

/** One key binding: what it does, where, and how it reads in /help, the README, the status line and the footers. */
export interface KeyBinding {
  command: KeyCommand;
  /** The keys as /help and the README write them ("Ctrl-T", "Shift+Tab", "y / a / n, 1–9"). */
  keys: string;
  /** How a hint or a footer writes the keys; the first of `keys`, in lower case, unless told. */
  short?: string;
  /** Where it works. */
  where: readonly KeyPlace[];
  /** One line for /help and the README. */
  does: string;
  /** The words after the keys in a hint or a footer ("esc to cancel", "d remove"). */
  hint?: string;
  /** The shell runs it (`use-shell.ts`), before the view that has the keys; otherwise that view does. */
  shell?: true;
  /**
   * Matches a key event. No two bindings of one place match the same key. A binding without it is
   * decoded elsewhere, and listed so that every key is described here: by the input editor's own
   * keymap (`editor/editor-keys.ts`), by the program in a terminal pane, or, for a key another
   * binding matches, by its view in a state it knows (Enter on a form's submit row).
   */
  match?(input: string, key: Key, raw: string): boolean;
}

/** The input alone. */
export const INPUT: readonly KeyPlace[] = ["input"];

// Matchers the bindings share.
/** Ctrl and a letter. */
export const ctrl = (letter: string) => (input: string, key: Key) => key.ctrl && input === letter;
/** Up or Down. */
export const upDown = (_input: string, key: Key) => key.upArrow || key.downArrow;
/** PageUp or PageDown. */
export const pages = (_input: string, key: Key) => key.pageUp || key.pageDown;
/** Enter. */
export const enter = (_input: string, key: Key) => key.return;
/** Esc. */
export const escape = (_input: string, key: Key) => key.escape;
/** A printable key, not a chord. */
export const typed = (input: string, key: Key) => input !== "" && !key.ctrl && !key.meta;
