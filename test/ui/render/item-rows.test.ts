import { beforeAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import path from "node:path";
import { reduce } from "../../../src/session/reduce.js";
import type { SessionState, TranscriptItem } from "../../../src/session/state.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { itemRows } from "../../../src/ui/render/item-rows.js";
import { itemViewOf } from "../../../src/ui/render/item-view.js";
import { cellWidth } from "../../../src/ui/render/text.js";
import { TRACES } from "../../support/trace-events.js";
import { CLAUDE_S3, CODEX_C2, finalState } from "../components/fixtures.js";
import { atColorLevel, plainRows, sgr } from "./plain-rows.js";

// The App loads these before it draws the transcript; rows drawn alone need them first.
beforeAll(() => loadRenderLibs());

const plainOf = (item: TranscriptItem, state: SessionState, expanded = false) =>
  plainRows(itemRows(itemViewOf(state, item), { width: 80, expanded }));

describe("transcript item rows", () => {
  it("shows an update of a kind it does not know, with its raw JSON, instead of dropping it", () => {
    const base = finalState(CODEX_C2);
    const state = reduce(base, {
      type: "update",
      at: 1,
      notification: { sessionId: "s", update: { sessionUpdate: "future_feature", detail: { answer: 42 } } } as never,
    });
    const item = state.items[state.items.length - 1];
    expect(item.kind).toBe("unknown");
    const out = plainOf(item, state);
    expect(out).toContain("unknown update future_feature");
    expect(out).toContain('{"sessionUpdate":"future_feature","detail":{"answer":42}}');
  });

  it("draws turn dividers, the user prompt, and collapses internal context to one line", () => {
    const state = finalState(CLAUDE_S3);
    expect(plainOf({ kind: "turn", id: "a", turnId: "t", origin: "agent", history: false }, state)).toMatch(/^── agent started a turn ─+$/);
    expect(plainOf({ kind: "turn", id: "h", turnId: "t", origin: "history", history: true }, state)).toMatch(/^── history ─+$/);
    const user = state.items.find((i) => i.kind === "user")!;
    expect(plainOf(user, state)).toBe("› Fix hello.txt and write notes");
    const internal: TranscriptItem = {
      kind: "user",
      id: "u",
      turnId: "t",
      text: "<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>",
      blocks: [],
      history: true,
      internal: true,
    };
    expect(plainOf(internal, state).split("\n")).toHaveLength(1);
  });

  it("collapses a thought to its first line unless expanded", () => {
    const state = finalState(CODEX_C2);
    const thought: TranscriptItem = {
      kind: "thought",
      id: "th",
      turnId: "t",
      text: "\n\n**Planning**\nstep one\nstep two",
      history: false,
    };
    const collapsed = plainOf(thought, state);
    expect(collapsed).toContain("Planning");
    expect(collapsed).not.toContain("**");
    expect(collapsed).toContain("(2 more lines)");
    expect(collapsed).not.toContain("step two");
    expect(plainOf(thought, state, true)).toContain("step two");
  });

  it("shows notices with their level, in the level's colour", () => {
    const state = finalState(CODEX_C2);
    expect(plainOf({ kind: "notice", id: "n", level: "error", text: "agent exited with code 1" }, state)).toBe(
      "✗ agent exited with code 1",
    );
    expect(plainOf({ kind: "notice", id: "n", level: "warning", text: "permission withdrawn" }, state)).toBe("! permission withdrawn");
    const [error] = atColorLevel(1, () =>
      itemRows(itemViewOf(state, { kind: "notice", id: "n", level: "error", text: "boom" }), { width: 80 }),
    );
    expect(error).toContain(`${sgr("31")}boom`);
  });

  it("renders every item of every recorded trace, within the width, without throwing", () => {
    const files = readdirSync(TRACES, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(path.join(TRACES, d.name)).map((f) => `${d.name}/${f}`));
    expect(files.length).toBeGreaterThan(20);
    for (const rel of files) {
      const state = finalState(rel);
      for (const item of state.items) {
        const rows = itemRows(itemViewOf(state, item), { width: 80 });
        if (item.kind !== "thought") expect(plainRows(rows).trim(), `${rel} ${item.kind}`).not.toBe("");
        expect(Math.max(0, ...rows.map(cellWidth)), `${rel} ${item.kind}`).toBeLessThanOrEqual(80);
      }
    }
  });
});
