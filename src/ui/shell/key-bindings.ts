import type { Key } from "ink";

/** Who has the keys. */
export type Focus = "input" | "queue" | "permission" | "question" | "auth" | "terminal" | "undo" | "search";

/** What a key does, by name: the shell dispatches on these; the help and the docs are made from the table. */
export type KeyCommand =
  | "send"
  | "steer"
  | "newline"
  | "history"
  | "edit-line"
  | "slash-menu"
  | "mention"
  | "cancel"
  | "detach"
  | "cycle-mode"
  | "focus-terminal"
  | "leave-terminal"
  | "scroll-terminal"
  | "select-queued"
  | "edit-queued"
  | "remove-queued"
  | "leave-queue"
  | "answer-permission"
  | "skip-permission"
  | "decline-question"
  | "confirm-undo"
  | "external-editor"
  | "paste-image"
  | "search"
  | "search-older"
  | "search-newer"
  | "scroll-search"
  | "edit-search"
  | "leave-search"
  | "clear-input";

/** One key binding: what it does, where, and how it reads in /help, the status line and the README. */
export interface KeyBinding {
  command: KeyCommand;
  /** The keys as a person writes them ("ctrl-t", "shift+tab", "y / a / n, 1–9"). */
  keys: string;
  /** Where it works: which focus has the keys when it does. */
  where: readonly Focus[];
  /** One line for /help and the README. */
  does: string;
  /** The words after the keys in the status line's hints ("esc to cancel"), where it is hinted. */
  hint?: string;
  /**
   * Matches a key event, for bindings the shell handles itself. Bindings without it are handled by
   * the component that has the keys (the editor, the permission prompt, the queue, the form) and are
   * listed here so that every key is described in one place.
   */
  match?(input: string, key: Key, raw: string): boolean;
}

const INPUT: readonly Focus[] = ["input"];

const ctrl = (letter: string) => (input: string, key: Key) => key.ctrl && input === letter;

/** Every key conch uses, in the order /help and the README list them. */
export const KEY_BINDINGS: readonly KeyBinding[] = [
  { command: "send", keys: "Enter", where: INPUT, does: "send (queued while the agent is busy)" },
  {
    command: "steer",
    keys: "Ctrl-S",
    where: INPUT,
    does: "while a turn runs: send the message into it (steer) instead of queuing it, where the agent takes steering (elsewhere it is queued, with a note)",
    hint: "to steer",
    match: ctrl("s"),
  },
  {
    command: "newline",
    keys: "Alt+Enter, Ctrl-J, `\\` then Enter",
    where: INPUT,
    does: "new line (Shift+Enter in terminals with the kitty keyboard protocol)",
  },
  { command: "history", keys: "Up / Down", where: INPUT, does: "history (on the first/last line)" },
  { command: "edit-line", keys: "Ctrl-A/E/K/U/W, Alt-B/F", where: INPUT, does: "line editing" },
  { command: "slash-menu", keys: "`/`", where: INPUT, does: "commands: the agent's, and conch's (see /help)" },
  {
    command: "mention",
    keys: "`@`",
    where: INPUT,
    does: "complete a file path; it is sent as a resource link (an image as an image block when the agent takes images)",
  },
  {
    command: "cancel",
    keys: "Esc",
    where: ["input", "permission", "question"],
    does: "cancel the turn (a permission or question waiting is answered cancelled)",
    hint: "to cancel",
    match: (_input, key) => key.escape,
  },
  {
    command: "detach",
    keys: "Ctrl-D",
    where: INPUT,
    does: "on an empty input while a turn drains: send the queued messages now (elsewhere it deletes the character under the cursor)",
    hint: "send next now",
    match: ctrl("d"),
  },
  {
    command: "cycle-mode",
    keys: "Shift+Tab",
    where: ["input", "permission"],
    does: "next mode, leaving out modes that drop approvals or the sandbox (`/mode <id>` names one)",
    match: (_input, key) => key.tab && key.shift,
  },
  {
    command: "focus-terminal",
    keys: "Ctrl-T",
    where: INPUT,
    does: "focus the running command's terminal pane and type into it (again: the next one)",
    hint: "focus terminal",
    match: ctrl("t"),
  },
  {
    command: "leave-terminal",
    keys: "Esc, Ctrl-T",
    where: ["terminal"],
    does: "leave the terminal pane; every other key goes to the program",
  },
  { command: "scroll-terminal", keys: "PgUp / PgDn", where: ["terminal"], does: "scroll the terminal pane" },
  {
    command: "select-queued",
    keys: "Up",
    where: INPUT,
    does: "on an empty input: select a queued message",
    match: (_input, key) => key.upArrow,
  },
  { command: "edit-queued", keys: "Enter, e", where: ["queue"], does: "edit the selected queued message" },
  { command: "remove-queued", keys: "d", where: ["queue"], does: "remove the selected queued message" },
  { command: "leave-queue", keys: "Esc", where: ["queue"], does: "back to the input" },
  {
    command: "answer-permission",
    keys: "y / a / n, 1–9, ↑↓ Enter",
    where: ["permission"],
    does: "answer the request; several requests wait in a queue",
  },
  {
    command: "skip-permission",
    keys: "Tab",
    where: ["permission", "input"],
    does: "type a message instead (Tab again: back to the prompt)",
    match: (_input, key) => key.tab && !key.shift,
  },
  {
    command: "decline-question",
    keys: "Ctrl-D",
    where: ["question"],
    does: "decline the agent's question (Tab moves between fields, space toggles, Enter on submit sends)",
  },
  { command: "confirm-undo", keys: "y / n, Esc", where: ["undo"], does: "put the files shown back, or leave them as they are" },
  {
    command: "external-editor",
    keys: "Ctrl-G",
    where: INPUT,
    does: "write the message in $VISUAL / $EDITOR (else vi); it comes back into the input when the editor exits",
    match: ctrl("g"),
  },
  {
    command: "paste-image",
    keys: "Alt-V",
    where: INPUT,
    does: "attach the image on the clipboard (wl-paste, xclip or osascript), when the agent takes images; also /paste-image",
    match: (input, key) => key.meta && input === "v",
  },
  {
    command: "search",
    keys: "Ctrl-R",
    where: INPUT,
    does: "search the session: prompts, answers, thoughts, tool titles, commands and output (also /search <text>)",
    match: ctrl("r"),
  },
  {
    command: "search-older",
    keys: "Up, Ctrl-R",
    where: ["search"],
    does: "the hit before (older)",
    match: (input, key) => key.upArrow || (key.ctrl && input === "r"),
  },
  {
    command: "search-newer",
    keys: "Down, Ctrl-S",
    where: ["search"],
    does: "the hit after (newer)",
    match: (input, key) => key.downArrow || (key.ctrl && input === "s"),
  },
  { command: "scroll-search", keys: "PgUp / PgDn", where: ["search"], does: "scroll the item the hit is in" },
  {
    command: "edit-search",
    keys: "typing, Backspace, Ctrl-U",
    where: ["search"],
    does: "edit what is searched for (a capital letter makes it match case)",
  },
  {
    command: "leave-search",
    keys: "Esc, Enter",
    where: ["search"],
    does: "leave the search",
    match: (_input, key) => key.escape || key.return,
  },
  {
    command: "clear-input",
    keys: "Ctrl-C",
    where: ["input", "queue", "permission", "question", "auth", "undo", "search"],
    does: "clear the input; twice in a row: quit",
    match: ctrl("c"),
  },
];

/** The binding of a command. */
export function binding(command: KeyCommand): KeyBinding {
  const found = KEY_BINDINGS.find((b) => b.command === command);
  if (!found) throw new Error(`no key binding for ${command}`);
  return found;
}

/** The status line's hint for a command: "esc to cancel". */
export function hintFor(command: KeyCommand): string {
  const b = binding(command);
  return `${b.keys.split(",")[0].trim().toLowerCase()} ${b.hint ?? b.does}`;
}

/** The shell command a key event is, where `focus` has the keys; undefined when the shell leaves it to the component. */
export function shellCommandFor(focus: Focus, input: string, key: Key, raw: string): KeyCommand | undefined {
  for (const b of KEY_BINDINGS) {
    if (!b.match) continue;
    if (!b.where.includes(focus)) continue;
    if (b.match(input, key, raw)) return b.command;
  }
  return undefined;
}

const PLACE: Record<Focus, string> = {
  input: "",
  queue: "the queue",
  permission: "a permission prompt",
  question: "a question",
  auth: "a login",
  terminal: "a terminal pane",
  undo: "the undo prompt",
  search: "the search",
};

/** Where a binding works, in words, when it is not (only) the input. */
function placeOf(b: KeyBinding): string {
  if (b.where.includes("input")) return "";
  return ` (in ${b.where.map((f) => PLACE[f]).join(", ")})`;
}

/** The keys as /help lists them. */
export function keyHelpLines(): string[] {
  return KEY_BINDINGS.map((b) => `${b.keys.replace(/`/g, "")} · ${b.does}${placeOf(b)}`);
}

/** The keys as the README's table: generated, so the README never drifts from the code. */
export function keyTableMarkdown(): string {
  const rows = KEY_BINDINGS.map((b) => `| ${b.keys} | ${b.does}${placeOf(b)} |`);
  return ["| key | does |", "| --- | --- |", ...rows].join("\n");
}
