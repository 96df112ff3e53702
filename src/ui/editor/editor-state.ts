/**
 * The prompt editor as a pure reducer: a text buffer with one cursor, plus the history of sent
 * prompts. The component maps keys to these actions; everything here is testable without Ink.
 */

/** The editor's whole state. */
export interface EditorState {
  text: string;
  /** Cursor offset into `text`, in UTF-16 code units, always on a code point boundary. */
  cursor: number;
  /** Sent prompts, oldest first. */
  history: string[];
  /** Which history entry is shown while browsing with Up/Down; null when editing a fresh draft. */
  historyIndex: number | null;
  /** The text that was in the editor when history browsing started, restored by walking past the newest entry. */
  draft: string;
  /**
   * The column Up/Down aim for, so moving through a short line and back keeps the column
   * (what every editor does). Cleared by any horizontal move or edit.
   */
  goalColumn: number | null;
}

/** Everything the editor can be asked to do. */
export type EditorAction =
  | { type: "insert"; text: string }
  | { type: "newline" }
  /** Enter right after a `\`: the backslash becomes a line break (a convention of terminal coding agents). */
  | { type: "backslash-newline" }
  | { type: "backspace" }
  | { type: "delete" }
  | { type: "left" }
  | { type: "right" }
  | { type: "word-left" }
  | { type: "word-right" }
  | { type: "line-start" }
  | { type: "line-end" }
  | { type: "kill-to-line-end" }
  | { type: "kill-to-line-start" }
  | { type: "delete-word-back" }
  | { type: "up" }
  | { type: "down" }
  | { type: "set"; text: string; cursor?: number }
  | { type: "clear" }
  /** The text was sent: remember it in history and start a fresh draft. */
  | { type: "submitted" };

/** An empty editor, optionally with a history to browse. */
export function initialEditorState(history: string[] = []): EditorState {
  return { text: "", cursor: 0, history, historyIndex: null, draft: "", goalColumn: null };
}

/** How many entries history keeps; older ones are forgotten. */
export const HISTORY_LIMIT = 200;

// Control characters a paste can carry that would corrupt the layout; tabs and newlines stay.

const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Normalises typed or pasted text: CR and CRLF become LF, stray control characters go. */
export function normalizeInput(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(CONTROL, "");
}

function lineStartOf(text: string, cursor: number): number {
  return text.lastIndexOf("\n", cursor - 1) + 1;
}

function lineEndOf(text: string, cursor: number): number {
  const end = text.indexOf("\n", cursor);
  return end === -1 ? text.length : end;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Size of the code point before `cursor` (1, or 2 for a surrogate pair). */
function prevStep(text: string, cursor: number): number {
  if (cursor <= 0) return 0;
  return cursor >= 2 && isLowSurrogate(text.charCodeAt(cursor - 1)) && isHighSurrogate(text.charCodeAt(cursor - 2)) ? 2 : 1;
}

/** Size of the code point at `cursor`. */
function nextStep(text: string, cursor: number): number {
  if (cursor >= text.length) return 0;
  const cp = text.codePointAt(cursor) ?? 0;
  return cp > 0xffff ? 2 : 1;
}

function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}_]/u.test(ch);
}

function wordLeftOf(text: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && !isWordChar(text[i - 1])) i--;
  while (i > 0 && isWordChar(text[i - 1])) i--;
  return i;
}

function wordRightOf(text: string, cursor: number): number {
  let i = cursor;
  while (i < text.length && !isWordChar(text[i])) i++;
  while (i < text.length && isWordChar(text[i])) i++;
  return i;
}

/** Where Ctrl-W deletes back to: the start of the previous whitespace-separated word (readline's unix-word-rubout). */
function wordRuboutStart(text: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(text[i - 1])) i--;
  while (i > 0 && !/\s/.test(text[i - 1])) i--;
  return i;
}

function edit(state: EditorState, text: string, cursor: number): EditorState {
  return { ...state, text, cursor, goalColumn: null };
}

function moveTo(state: EditorState, cursor: number): EditorState {
  return { ...state, cursor: Math.max(0, Math.min(state.text.length, cursor)), goalColumn: null };
}

/** Which line (0-based) the cursor is on, and how many lines there are. */
export function cursorLine(state: Pick<EditorState, "text" | "cursor">): { line: number; lines: number; column: number } {
  const before = state.text.slice(0, state.cursor);
  const line = before.split("\n").length - 1;
  return { line, lines: state.text.split("\n").length, column: state.cursor - lineStartOf(state.text, state.cursor) };
}

function verticalMove(state: EditorState, direction: -1 | 1): EditorState {
  const { text, cursor } = state;
  const start = lineStartOf(text, cursor);
  const goal = state.goalColumn ?? cursor - start;
  let targetStart: number;
  if (direction < 0) {
    targetStart = lineStartOf(text, start - 1);
  } else {
    targetStart = lineEndOf(text, cursor) + 1;
  }
  const targetEnd = lineEndOf(text, targetStart);
  let target = Math.min(targetStart + goal, targetEnd);
  // Never land between the halves of a surrogate pair.
  if (target > targetStart && isLowSurrogate(text.charCodeAt(target)) && isHighSurrogate(text.charCodeAt(target - 1))) target -= 1;
  return { ...state, cursor: target, goalColumn: goal };
}

function browseHistory(state: EditorState, direction: -1 | 1): EditorState {
  const { history } = state;
  if (direction < 0) {
    if (history.length === 0) return state;
    if (state.historyIndex === null) {
      const index = history.length - 1;
      return { ...state, draft: state.text, historyIndex: index, text: history[index], cursor: history[index].length, goalColumn: null };
    }
    if (state.historyIndex === 0) return state;
    const index = state.historyIndex - 1;
    return { ...state, historyIndex: index, text: history[index], cursor: history[index].length, goalColumn: null };
  }
  if (state.historyIndex === null) return state;
  if (state.historyIndex < history.length - 1) {
    const index = state.historyIndex + 1;
    return { ...state, historyIndex: index, text: history[index], cursor: history[index].length, goalColumn: null };
  }
  return { ...state, historyIndex: null, text: state.draft, cursor: state.draft.length, draft: "", goalColumn: null };
}

/** Applies one editing action. Pure. */
export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { text, cursor } = state;
  switch (action.type) {
    case "insert": {
      const clean = normalizeInput(action.text);
      if (!clean) return state;
      return edit(state, text.slice(0, cursor) + clean + text.slice(cursor), cursor + clean.length);
    }
    case "newline":
      return edit(state, `${text.slice(0, cursor)}\n${text.slice(cursor)}`, cursor + 1);
    case "backslash-newline":
      if (cursor > 0 && text[cursor - 1] === "\\") return edit(state, `${text.slice(0, cursor - 1)}\n${text.slice(cursor)}`, cursor);
      return editorReducer(state, { type: "newline" });
    case "backspace": {
      const step = prevStep(text, cursor);
      if (!step) return state;
      return edit(state, text.slice(0, cursor - step) + text.slice(cursor), cursor - step);
    }
    case "delete": {
      const step = nextStep(text, cursor);
      if (!step) return state;
      return edit(state, text.slice(0, cursor) + text.slice(cursor + step), cursor);
    }
    case "left":
      return moveTo(state, cursor - prevStep(text, cursor));
    case "right":
      return moveTo(state, cursor + nextStep(text, cursor));
    case "word-left":
      return moveTo(state, wordLeftOf(text, cursor));
    case "word-right":
      return moveTo(state, wordRightOf(text, cursor));
    case "line-start":
      return moveTo(state, lineStartOf(text, cursor));
    case "line-end":
      return moveTo(state, lineEndOf(text, cursor));
    case "kill-to-line-end": {
      const end = lineEndOf(text, cursor);
      // At the end of a line, Ctrl-K joins the next line (as readline and emacs do).
      const to = end === cursor && cursor < text.length ? cursor + 1 : end;
      return edit(state, text.slice(0, cursor) + text.slice(to), cursor);
    }
    case "kill-to-line-start": {
      const start = lineStartOf(text, cursor);
      return edit(state, text.slice(0, start) + text.slice(cursor), start);
    }
    case "delete-word-back": {
      const start = wordRuboutStart(text, cursor);
      return edit(state, text.slice(0, start) + text.slice(cursor), start);
    }
    case "up": {
      const { line } = cursorLine(state);
      return line === 0 ? browseHistory(state, -1) : verticalMove(state, -1);
    }
    case "down": {
      const { line, lines } = cursorLine(state);
      return line === lines - 1 ? browseHistory(state, 1) : verticalMove(state, 1);
    }
    case "set": {
      const clean = normalizeInput(action.text);
      const at = action.cursor === undefined ? clean.length : Math.max(0, Math.min(clean.length, action.cursor));
      return { ...state, text: clean, cursor: at, historyIndex: null, draft: "", goalColumn: null };
    }
    case "clear":
      return { ...state, text: "", cursor: 0, historyIndex: null, draft: "", goalColumn: null };
    case "submitted": {
      const entry = text;
      const history =
        entry.trim() && state.history[state.history.length - 1] !== entry ? [...state.history, entry].slice(-HISTORY_LIMIT) : state.history;
      return { ...initialEditorState(history) };
    }
  }
}
