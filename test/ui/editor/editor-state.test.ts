import { describe, expect, it } from "vitest";
import { inkKey } from "../ink-key.js";
import { editorCommandFor, enterAction } from "../../../src/ui/editor/editor-keys.js";
import { editorReducer, initialEditorState, type EditorAction, type EditorState } from "../../../src/ui/editor/editor-state.js";

const run = (actions: EditorAction[], from: EditorState = initialEditorState()) => actions.reduce(editorReducer, from);
const typed = (text: string, history: string[] = []) => run([{ type: "insert", text }], initialEditorState(history));

const key = inkKey;
const ctx = { inPaste: false, bracketedPaste: true };

describe("the editor reducer", () => {
  it("inserts at the cursor and moves left and right by code point", () => {
    let s = typed("héllo 👋");
    expect(s.cursor).toBe(s.text.length);
    s = run([{ type: "left" }, { type: "left" }, { type: "insert", text: "!" }], s);
    expect(s.text).toBe("héllo! 👋");
    s = run([{ type: "line-end" }, { type: "backspace" }], s);
    expect(s.text).toBe("héllo! ");
  });

  it("keeps pasted newlines (CRLF and CR become LF) and drops stray control characters", () => {
    const s = typed("one\r\ntwo\rthree\x1b[31m\x07");
    expect(s.text).toBe("one\ntwo\nthree[31m");
  });

  it("Ctrl-A/E go to the start and end of the cursor's line, Ctrl-K and Ctrl-U kill to them", () => {
    let s = run([{ type: "up" }], typed("first line\nsecond line"));
    expect(s.cursor).toBe("first line".length);
    s = run([{ type: "line-start" }], s);
    expect(s.cursor).toBe(0);
    s = run(
      [{ type: "right" }, { type: "right" }, { type: "right" }, { type: "right" }, { type: "right" }, { type: "kill-to-line-end" }],
      s,
    );
    expect(s.text).toBe("first\nsecond line");
    s = run([{ type: "kill-to-line-end" }], s);
    expect(s.text).toBe("firstsecond line");
    s = run([{ type: "kill-to-line-start" }], s);
    expect(s.text).toBe("second line");
    expect(s.cursor).toBe(0);
  });

  it("Ctrl-W deletes the word before the cursor, with the spaces after it", () => {
    expect(run([{ type: "delete-word-back" }], typed("git commit -m  ")).text).toBe("git commit ");
    expect(run([{ type: "delete-word-back" }], typed("one two")).text).toBe("one ");
  });

  it("Delete removes the character under the cursor", () => {
    const s = run([{ type: "line-start" }, { type: "delete" }], typed("abc"));
    expect(s.text).toBe("bc");
  });

  it("Up and Down move between lines keeping the column, and walk history on the first and last line", () => {
    let s = typed("draft", ["older", "newer"]);
    s = run([{ type: "up" }], s);
    expect(s.text).toBe("newer");
    s = run([{ type: "up" }], s);
    expect(s.text).toBe("older");
    s = run([{ type: "up" }], s);
    expect(s.text).toBe("older");
    s = run([{ type: "down" }, { type: "down" }], s);
    expect(s.text).toBe("draft");
    expect(s.historyIndex).toBeNull();

    let m = typed("a long first line\nxy\nthird line here");
    m = run([{ type: "up" }, { type: "up" }], m);
    // Column 15 survives the short middle line.
    expect(m.cursor).toBe("third line here".length);
    m = run([{ type: "down" }], m);
    expect(m.text.slice(0, m.cursor).split("\n").length).toBe(2);
    expect(m.cursor).toBe("a long first line\nxy".length);
  });

  it("remembers sent prompts, without repeating the same one twice in a row", () => {
    let s = run([{ type: "submitted" }], typed("hello"));
    s = run([{ type: "insert", text: "hello" }, { type: "submitted" }, { type: "insert", text: "bye" }, { type: "submitted" }], s);
    expect(s.history).toEqual(["hello", "bye"]);
    expect(s.text).toBe("");
  });

  it("turns a backslash before the cursor into a line break on Enter", () => {
    const s = typed("one \\");
    const action = enterAction(s);
    expect(action).toEqual({ type: "backslash-newline" });
    expect(editorReducer(s, action!).text).toBe("one \n");
    expect(enterAction(typed("no backslash"))).toBeNull();
  });
});

describe("editor keys", () => {
  it("Enter sends; Shift+Enter, Alt+Enter and Ctrl-J break the line", () => {
    expect(editorCommandFor("\r", key({ return: true }), "\r", ctx)).toEqual({ kind: "enter" });
    expect(editorCommandFor("\r", key({ return: true, shift: true }), "\x1b[13;2u", ctx)).toEqual({
      kind: "edit",
      action: { type: "newline" },
    });
    expect(editorCommandFor("\r", key({ return: true, meta: true }), "\x1b\r", ctx)).toEqual({ kind: "edit", action: { type: "newline" } });
    expect(editorCommandFor("\n", key(), "\n", ctx)).toEqual({ kind: "edit", action: { type: "newline" } });
  });

  it("a paste inside bracketed-paste markers never sends, even on its line breaks", () => {
    expect(editorCommandFor("[200~", key(), "\x1b[200~", ctx)).toEqual({ kind: "paste-start" });
    expect(editorCommandFor("", key({ return: true }), "\r", { ...ctx, inPaste: true })).toEqual({
      kind: "edit",
      action: { type: "newline" },
    });
    expect(editorCommandFor("a\rb", key(), "a\rb", { ...ctx, inPaste: true })).toEqual({
      kind: "edit",
      action: { type: "insert", text: "a\rb" },
    });
  });

  it("an unmarked multi-line paste stays in the buffer when the terminal has no bracketed paste", () => {
    expect(editorCommandFor("one\rtwo\r", key(), "one\rtwo\r", { inPaste: false, bracketedPaste: false })).toEqual({
      kind: "edit",
      action: { type: "insert", text: "one\rtwo\r" },
    });
  });

  it("tells Backspace from forward Delete by their bytes", () => {
    expect(editorCommandFor("", key({ delete: true }), "\x7f", ctx)).toEqual({ kind: "edit", action: { type: "backspace" } });
    expect(editorCommandFor("", key({ delete: true }), "\x1b[3~", ctx)).toEqual({ kind: "edit", action: { type: "delete" } });
  });

  it("maps the readline control keys", () => {
    const ctrl = (c: string) => editorCommandFor(c, key({ ctrl: true }), String.fromCharCode(c.charCodeAt(0) - 96), ctx);
    expect(ctrl("a")).toEqual({ kind: "edit", action: { type: "line-start" } });
    expect(ctrl("e")).toEqual({ kind: "edit", action: { type: "line-end" } });
    expect(ctrl("k")).toEqual({ kind: "edit", action: { type: "kill-to-line-end" } });
    expect(ctrl("u")).toEqual({ kind: "edit", action: { type: "kill-to-line-start" } });
    expect(ctrl("w")).toEqual({ kind: "edit", action: { type: "delete-word-back" } });
    expect(ctrl("x")).toEqual({ kind: "none" });
  });
});
