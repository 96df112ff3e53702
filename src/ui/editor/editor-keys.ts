import type { Key } from "ink";
import type { EditorAction, EditorState } from "./editor-state.js";
import { KITTY, PASTE_END, PASTE_START } from "../tty/key-reads.js";

/** What one key event means to the prompt editor. */
export type EditorCommand =
  | { kind: "edit"; action: EditorAction }
  /** Enter: send, unless the caller decides otherwise (a `\` before the cursor, an open menu). */
  | { kind: "enter" }
  /** Several typed characters that arrived in one read while bracketed paste is on, so not a paste. */
  | { kind: "type-ahead"; text: string; submit: boolean }
  | { kind: "paste-start" }
  | { kind: "paste-end" }
  | { kind: "none" };

/** What the key mapping needs to know besides the key. */
export interface EditorKeyContext {
  /** Between bracketed-paste markers: Enter is a line break, not a send. */
  inPaste: boolean;
  /**
   * The terminal was asked for bracketed paste, so a real paste comes between markers and an
   * unmarked multi-character read is fast typing (or `tmux send-keys`) whose final CR is Enter.
   */
  bracketedPaste: boolean;
}

/** True for the raw bytes of the forward-Delete key (`CSI 3 ~`, with or without modifiers/event type). */
function isForwardDelete(raw: string): boolean {
  return /^\x1b\[3(?:;\d+(?::\d+)?)?~$/.test(raw);
}

const edit = (action: EditorAction): EditorCommand => ({ kind: "edit", action });

/**
 * Maps one Ink key event (plus its raw bytes) to an editor command. Ink reports both Backspace
 * (`\x7f`) and forward Delete (`ESC [3~`) as `key.delete`, so the raw bytes tell them apart.
 */
export function editorCommandFor(input: string, key: Key, raw: string, ctx: EditorKeyContext): EditorCommand {
  if (raw === PASTE_START) return { kind: "paste-start" };
  if (raw === PASTE_END) return { kind: "paste-end" };
  if (ctx.inPaste) {
    if (key.return) return edit({ type: "newline" });
    if (key.tab) return edit({ type: "insert", text: "\t" });
    return input ? edit({ type: "insert", text: input }) : { kind: "none" };
  }
  if (key.return) return key.shift || key.meta ? edit({ type: "newline" }) : { kind: "enter" };
  if (input === "\n" || (key.ctrl && input === "j")) return edit({ type: "newline" });
  if (key.backspace || key.delete) {
    if (isForwardDelete(raw)) return edit({ type: "delete" });
    return key.meta && raw !== "\x1b" ? edit({ type: "delete-word-back" }) : edit({ type: "backspace" });
  }
  if (key.leftArrow) return edit({ type: key.ctrl || key.meta ? "word-left" : "left" });
  if (key.rightArrow) return edit({ type: key.ctrl || key.meta ? "word-right" : "right" });
  if (key.upArrow) return edit({ type: "up" });
  if (key.downArrow) return edit({ type: "down" });
  if (key.home) return edit({ type: "line-start" });
  if (key.end) return edit({ type: "line-end" });
  if (key.tab || key.escape || key.pageUp || key.pageDown) return { kind: "none" };
  if (key.ctrl) {
    switch (input) {
      case "a":
        return edit({ type: "line-start" });
      case "e":
        return edit({ type: "line-end" });
      case "k":
        return edit({ type: "kill-to-line-end" });
      case "u":
        return edit({ type: "kill-to-line-start" });
      case "w":
        return edit({ type: "delete-word-back" });
      case "b":
        return edit({ type: "left" });
      case "f":
        return edit({ type: "right" });
      default:
        return { kind: "none" };
    }
  }
  if (key.meta && !KITTY.test(raw)) {
    if (input === "b") return edit({ type: "word-left" });
    if (input === "f") return edit({ type: "word-right" });
    if (input.length === 1) return { kind: "none" };
  }
  if (!input) return { kind: "none" };
  if (ctx.bracketedPaste && input.length > 1 && input.includes("\r")) {
    // Typed faster than one read: the last CR is Enter; earlier ones are line breaks.
    const submit = input.endsWith("\r");
    return { kind: "type-ahead", text: submit ? input.slice(0, -1) : input, submit };
  }
  return edit({ type: "insert", text: input });
}

/** What Enter does in this state: turn a trailing `\` into a line break, or send (null). */
export function enterAction(state: EditorState): EditorAction | null {
  return state.cursor > 0 && state.text[state.cursor - 1] === "\\" ? { type: "backslash-newline" } : null;
}
