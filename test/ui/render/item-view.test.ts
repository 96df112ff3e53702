// What one transcript item shows is derived once from the session (`itemViewOf`): the same view
// while nothing the item shows changed, a new one when something did, so rows are kept by identity.
import { beforeAll, describe, expect, it } from "vitest";
import type { SessionState, TranscriptItem } from "../../../src/session/state.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { itemViewOf } from "../../../src/ui/render/item-view.js";
import { requestViewOf } from "../../../src/ui/render/request-view.js";
import { RowCache } from "../../../src/ui/transcript/row-cache.js";
import { CLAUDE_S2_TERM, finalState, permissionFromTrace, toolByTitle } from "../components/fixtures.js";
import { plainRows } from "./plain-rows.js";

beforeAll(() => loadRenderLibs());

const s = finalState(CLAUDE_S2_TERM);
const echo = toolByTitle(s, "echo hello");
const item: TranscriptItem = s.items.find((i) => i.kind === "tool" && i.toolCallId === echo.toolCallId)!;

describe("an item's view", () => {
  it("is the same object for a later state that changed nothing the item shows", () => {
    const later: SessionState = { ...s, seq: s.seq + 1, title: "another title", queue: [{ id: "q1", text: "next" }] };
    expect(itemViewOf(later, item)).toBe(itemViewOf(s, item));
  });

  it("holds the card's call, its terminals' views, whether a permission waits, and the session's folder", () => {
    const view = itemViewOf(s, item);
    expect(view.card?.call).toBe(echo);
    expect(view.card?.terminals[echo.terminalId!]).toBe(s.terminals[echo.terminalId!]);
    expect(view.card?.awaiting).toBe(false);
    expect(view.card?.cwd).toBe(s.info?.cwd);
  });

  it("is new when the call, one of its terminals or a permission for it changed, and so are its rows", () => {
    const cache = new RowCache();
    const opts = { width: 80, expanded: false };
    const before = cache.live(item, s, opts);
    const term = s.terminals[echo.terminalId!];
    const changes: SessionState[] = [
      { ...s, toolCalls: { ...s.toolCalls, [echo.toolCallId]: { ...echo, title: "echo bye" } } },
      { ...s, terminals: { ...s.terminals, [term.terminalId]: { ...term, outputTail: "bye\n" } } },
      { ...s, permissions: [{ ...permissionFromTrace("claude-agent-acp-0.23.1/s2-bash-permission.jsonl"), toolCallId: echo.toolCallId }] },
    ];
    for (const changed of changes) {
      expect(itemViewOf(changed, item)).not.toBe(itemViewOf(s, item));
      expect(cache.live(item, changed, opts)).not.toBe(before);
    }
    expect(plainRows(cache.live(item, changes[2], opts))).toContain("awaiting permission");
  });

  it("of an item that is no tool call is the item alone", () => {
    const user = s.items.find((i) => i.kind === "user")!;
    expect(itemViewOf(s, user)).toEqual({ item: user });
  });
});

describe("a permission request's view", () => {
  const permission = { ...permissionFromTrace("claude-agent-acp-0.23.1/s2-bash-permission.jsonl"), toolCallId: echo.toolCallId };
  const asking: SessionState = { ...s, permissions: [permission] };

  it("is the same object while nothing the prompt shows changed", () => {
    const view = requestViewOf(asking, permission);
    expect(requestViewOf({ ...asking, seq: asking.seq + 1, title: "another title" }, permission)).toBe(view);
    expect(view.display.command).toBe("echo hello");
    expect(view.cwd).toBe(s.info?.cwd);
  });

  it("is new when the call it asks about changed", () => {
    const view = requestViewOf(asking, permission);
    const changed = { ...asking, toolCalls: { ...asking.toolCalls, [echo.toolCallId]: { ...echo, locations: [{ path: "/tmp/x" }] } } };
    expect(requestViewOf(changed, permission)).not.toBe(view);
  });
});
