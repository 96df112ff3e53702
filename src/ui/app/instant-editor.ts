import { editorCommandFor, enterAction } from "../editor/editor-keys.js";
import { editorReducer, initialEditorState, type EditorAction, type EditorState } from "../editor/editor-state.js";
import { shellCommandFor } from "../shell/key-bindings.js";
import { inkInputParser, inkKeyOf } from "../tty/ink-keys.js";

/**
 * The App's editor before the App is loaded: the same key parsing (Ink's own parsers), the same key
 * map (`editorCommandFor`) and the same buffer (`editorReducer`), so a key typed while conch starts
 * edits exactly what it would have edited in the App, which starts from this buffer.
 *
 * Only what the instant prompt can draw as the App draws it is taken here. A key the App decides
 * otherwise (the shell's keys: Esc, Tab, Up, Ctrl-T…), a buffer the App would show a menu for (`/`,
 * `@`), a line too long or too wide to draw without Ink's wrapping, and Enter on anything but plain
 * text (`!cmd`, `/cmd`, `@file`, labels) are left to the App: that key and every key after it go to
 * it as typed, in order, once it is up. A paste is taken whole or left whole.
 */
export class InstantEditor {
  editor: EditorState = initialEditorState();
  /** From the first key left to the App on, every key is the App's. */
  deferred = false;
  private readonly parser = inkInputParser();
  /** The open paste's key events, applied at its end. */
  private paste: string[] | null = null;

  /**
   * @param fits whether the instant prompt draws this buffer exactly as the App would.
   * @param send Enter on a plain message: what the App's submit does with it (it is queued until the session opens).
   */
  constructor(
    private readonly fits: (editor: EditorState) => boolean,
    private readonly send: (text: string) => void,
  ) {}

  /** Takes one read of keys; returns what is left for the App (nothing, or the rest of the read from the first key it must decide). */
  take(read: string): string[] {
    if (this.deferred) return [read];
    const events = this.parser.push(read);
    if (this.parser.hasPendingEscape()) events.push(this.parser.flushPendingEscape() ?? "");
    for (let i = 0; i < events.length; i++) {
      if (this.step(events[i])) continue;
      this.deferred = true;
      const rest = [...(this.paste ?? []), ...events.slice(i)].join("");
      this.paste = null;
      return rest ? [rest] : [];
    }
    return [];
  }

  /** Applies one key event; false when it is the App's to decide. */
  private step(event: string): boolean {
    const { input, key, raw } = inkKeyOf(event);
    if (this.paste) {
      this.paste.push(event);
      if (editorCommandFor(input, key, raw, { inPaste: true, bracketedPaste: true }).kind !== "paste-end") return true;
      return this.applyPaste();
    }
    const command = editorCommandFor(input, key, raw, { inPaste: false, bracketedPaste: true });
    if (command.kind === "paste-start") {
      this.paste = [event];
      return true;
    }
    if (command.kind === "paste-end") return true;
    const shell = shellCommandFor("input", input, key, raw);
    // The shell's keys that do an edit whenever the buffer has text (use-shell): Up moves or walks
    // history, Ctrl-D deletes. On an empty buffer they act on the queue, which is the App's.
    if (shell === "detach" && this.editor.text !== "") return this.apply([{ type: "delete" }]);
    if (shell !== undefined && !(shell === "select-queued" && this.editor.text !== "")) return false;
    switch (command.kind) {
      case "edit":
        return this.apply([command.action]);
      case "enter": {
        const action = enterAction(this.editor);
        return action ? this.apply([action]) : this.submit(this.editor);
      }
      case "type-ahead": {
        const typed = editorReducer(this.editor, { type: "insert", text: command.text });
        if (!command.submit) return this.apply([{ type: "insert", text: command.text }]);
        return this.acceptable(typed) && this.submit(typed);
      }
      default:
        return true;
    }
  }

  /** The paste's keys, as the App's editor takes them between the markers: all of them, or none. */
  private applyPaste(): boolean {
    const events = this.paste ?? [];
    const actions: EditorAction[] = [];
    for (const event of events.slice(1, -1)) {
      const { input, key, raw } = inkKeyOf(event);
      const command = editorCommandFor(input, key, raw, { inPaste: true, bracketedPaste: true });
      if (command.kind === "edit") actions.push(command.action);
    }
    if (!this.apply(actions)) return false;
    this.paste = null;
    return true;
  }

  private apply(actions: EditorAction[]): boolean {
    const next = actions.reduce(editorReducer, this.editor);
    if (!this.acceptable(next)) return false;
    this.editor = next;
    return true;
  }

  /** A buffer the App shows as the instant prompt does: no menu, and drawn without wrapping. */
  private acceptable(editor: EditorState): boolean {
    return !editor.text.startsWith("/") && !editor.text.includes("@") && this.fits(editor);
  }

  /** Enter: the App's submit of plain text (a message sent, the buffer into history); nothing when blank. */
  private submit(editor: EditorState): boolean {
    const text = editor.text.replace(/\s+$/, "");
    if (!text.trim()) return true;
    if (/^\s*[!/]/.test(text) || /[@[]/.test(text)) return false;
    this.editor = editorReducer(editor, { type: "submitted" });
    this.send(text);
    return true;
  }
}
