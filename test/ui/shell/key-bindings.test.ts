import { describe, expect, it } from "vitest";
import { binding, footer, hintFor, KEY_BINDINGS, shortKeys } from "../../../src/ui/shell/key-bindings.js";
import { editorCommandFor } from "../../../src/ui/editor/editor-keys.js";
import { inkKey as key } from "../ink-key.js";

describe("the key table's words", () => {
  it("makes footers of each binding's keys and hint, the neighbours that say the same sharing their words", () => {
    expect(footer(["move-selection", "edit-queued", "remove-queued", "leave-queue"])).toBe(
      "↑↓ choose · enter/e edit · d remove · esc back",
    );
    expect(footer(["search-older", "search-newer", "scroll-search", "leave-search"])).toBe("↑↓ hits · pgup/pgdn scroll · esc leaves");
    expect(footer(["move-selection", "menu-complete", ["menu-enter", "complete"], "menu-close"])).toBe(
      "↑↓ choose · tab/enter complete · esc close",
    );
    expect(footer([["confirm-undo", "leave it", [1, 2]]])).toBe("n or esc leave it");
    expect(hintFor("cancel")).toBe("esc to cancel");
    expect(shortKeys("confirm-undo", [0])).toBe("y");
  });

  it("binds every key it lists, but those the editor's own keymap, a pane's program or a view's state decode", () => {
    const unmatched = KEY_BINDINGS.filter((b) => !b.match).map((b) => b.command);
    expect(unmatched).toEqual([
      "send",
      "newline",
      "history",
      "edit-line",
      "slash-menu",
      "mention",
      "type-terminal",
      "submit-question",
      "link-done",
    ]);
    // The editor's keymap decodes what the table says of it.
    const ctx = { inPaste: false, bracketedPaste: false };
    expect(editorCommandFor("", key({ return: true }), "\r", ctx).kind).toBe("enter");
    expect(editorCommandFor("", key({ return: true, meta: true }), "\x1b\r", ctx)).toEqual({ kind: "edit", action: { type: "newline" } });
    expect(editorCommandFor("j", key({ ctrl: true }), "\n", ctx)).toEqual({ kind: "edit", action: { type: "newline" } });
    expect(editorCommandFor("", key({ upArrow: true }), "\x1b[A", ctx)).toEqual({ kind: "edit", action: { type: "up" } });
    expect(editorCommandFor("w", key({ ctrl: true }), "\x17", ctx)).toEqual({ kind: "edit", action: { type: "delete-word-back" } });
    expect(binding("submit-question").where).toEqual(binding("next-field").where);
  });
});
