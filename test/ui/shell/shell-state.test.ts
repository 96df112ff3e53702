import type { Key } from "ink";
import { describe, expect, it } from "vitest";
import { inkKey } from "../ink-key.js";
import { initialSessionState, type SessionState } from "../../../src/session/state.js";
import { KEY_BINDINGS, keyHelpLines, shellCommandFor } from "../../../src/ui/shell/key-bindings.js";
import { focusOf, INITIAL_SHELL, shellReducer } from "../../../src/ui/shell/shell-state.js";

const key = inkKey;

function session(patch: Partial<SessionState>): SessionState {
  return { ...initialSessionState(), phase: "idle", ...patch };
}

const permission = {
  key: "agent:1",
  toolCallId: "x",
  options: [],
  request: { sessionId: "s", toolCall: { toolCallId: "x" }, options: [] },
  askedAt: 0,
};

describe("who has the keys", () => {
  it("a focused running terminal first, then a selected queued message, a permission, a question, a login, else the input", () => {
    const s = session({ queue: [{ id: "q", text: "later" }], permissions: [permission], questions: [] });
    expect(focusOf({ ...INITIAL_SHELL, terminalFocus: { id: "t", scroll: 0 } }, s, ["t"])).toBe("terminal");
    expect(focusOf({ ...INITIAL_SHELL, terminalFocus: { id: "t", scroll: 0 } }, s, [])).toBe("permission");
    expect(focusOf({ ...INITIAL_SHELL, queueSelected: 0 }, s, [])).toBe("queue");
    expect(focusOf({ ...INITIAL_SHELL, permissionSkipped: "agent:1" }, s, [])).toBe("input");
    expect(focusOf(INITIAL_SHELL, session({ phase: "auth", auth: { methods: [], message: "log in" } }), [])).toBe("auth");
    expect(focusOf(INITIAL_SHELL, session({}), [])).toBe("input");
  });

  it("the search view has the keys while it is open, over everything but a focused terminal; a new query starts from the newest hit", () => {
    const s = session({ queue: [{ id: "q", text: "later" }], permissions: [permission] });
    const searching = shellReducer(INITIAL_SHELL, { type: "search-opened", query: "build" });
    expect(focusOf(searching, s, [])).toBe("search");
    expect(focusOf({ ...searching, terminalFocus: { id: "t", scroll: 0 } }, s, ["t"])).toBe("terminal");
    let v = shellReducer(searching, { type: "search-selected", key: "i3#0" });
    v = shellReducer(v, { type: "search-scrolled", by: -4 });
    expect(v.search).toEqual({ query: "build", selected: "i3#0", scroll: -4 });
    v = shellReducer(v, { type: "search-edited", query: "buil" });
    expect(v.search).toEqual({ query: "buil", selected: null, scroll: 0 });
    // Keys are applied to the query as it is, so keys that come faster than renders all count.
    v = shellReducer(shellReducer(v, { type: "search-typed", keys: "dx" }), { type: "search-typed", keys: "\x7f\x7fd\ter" });
    expect(v.search?.query).toBe("builder");
    expect(focusOf(shellReducer(v, { type: "search-closed" }), s, [])).toBe("permission");
    expect(shellCommandFor("input", "r", key({ ctrl: true }), "\x12")).toBe("search");
    expect(shellCommandFor("search", "r", key({ ctrl: true }), "\x12")).toBe("search-older");
    expect(shellCommandFor("search", "", key({ escape: true }), "\x1b")).toBe("leave-search");
    expect(shellCommandFor("search", "c", key({ ctrl: true }), "\x03")).toBe("clear-input");
  });

  it("the view state moves by named actions; scrolling never goes below the live bottom", () => {
    let s = shellReducer(INITIAL_SHELL, { type: "terminal-focused", id: "t" });
    s = shellReducer(s, { type: "terminal-scrolled", by: 5 });
    s = shellReducer(s, { type: "terminal-scrolled", by: -9 });
    expect(s.terminalFocus).toEqual({ id: "t", scroll: 0 });
    s = shellReducer(s, { type: "queue-edit-started", id: "q1" });
    expect(s).toMatchObject({ editingQueuedId: "q1", queueSelected: null });
    expect(shellReducer(INITIAL_SHELL, { type: "messages-cleared" })).toBe(INITIAL_SHELL);
  });
});

describe("the key table", () => {
  it("one key means one shell command where it works: Esc cancels from the input and a permission, Tab steps away from a permission", () => {
    expect(shellCommandFor("input", "", key({ escape: true }), "\x1b")).toBe("cancel");
    expect(shellCommandFor("permission", "", key({ escape: true }), "\x1b")).toBe("cancel");
    expect(shellCommandFor("permission", "", key({ tab: true }), "\t")).toBe("skip-permission");
    expect(shellCommandFor("permission", "", key({ tab: true, shift: true }), "\x1b[Z")).toBe("cycle-mode");
    expect(shellCommandFor("input", "d", key({ ctrl: true }), "\x04")).toBe("detach");
    expect(shellCommandFor("queue", "d", key({}), "d")).toBeUndefined();
    expect(shellCommandFor("terminal", "c", key({ ctrl: true }), "\x03")).toBeUndefined();
  });

  it("no two shell bindings take the same key in the same place", () => {
    const samples: [string, Partial<Key>, string][] = [
      ["", { escape: true }, "\x1b"],
      ["", { tab: true }, "\t"],
      ["", { tab: true, shift: true }, "\x1b[Z"],
      ["d", { ctrl: true }, "\x04"],
      ["t", { ctrl: true }, "\x14"],
      ["c", { ctrl: true }, "\x03"],
      ["", { upArrow: true }, "\x1b[A"],
      ["", { downArrow: true }, "\x1b[B"],
      ["r", { ctrl: true }, "\x12"],
      ["s", { ctrl: true }, "\x13"],
      ["", { return: true }, "\r"],
    ];
    for (const focus of ["input", "queue", "permission", "question", "auth", "terminal", "search"] as const) {
      for (const [input, k, raw] of samples) {
        const hits = KEY_BINDINGS.filter((b) => b.match && b.where.includes(focus) && b.match(input, key(k), raw));
        expect(hits.length, `${focus} ${raw}`).toBeLessThanOrEqual(1);
      }
    }
  });

  it("/help lists every key once", () => {
    expect(keyHelpLines()).toHaveLength(KEY_BINDINGS.length);
    expect(keyHelpLines().join("\n")).toContain("Ctrl-D · on an empty input while a turn drains: send the queued messages now");
  });
});
