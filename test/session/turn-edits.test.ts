import { describe, expect, it } from "vitest";
import type { SessionEvent, SessionEventInput } from "../../src/session/events.js";
import { localHistoryOf } from "../../src/session/local-history.js";
import { foldEvents } from "../../src/session/reduce.js";
import { findTurn, turnsWithEdits, unseenWork } from "../../src/session/turn-edits.js";

let at = 0;
const ev = (e: SessionEventInput): SessionEvent => ({ ...e, at: ++at }) as SessionEvent;
const v = (sha: string) => ({ bytes: 1, sha256: sha.repeat(64).slice(0, 64) });

const opened = ev({ type: "session_started", info: { sessionId: "s1", cwd: "/w", agentName: "a", origin: "new" } });
const prompt = (turnId: string, text: string) => ev({ type: "prompt_sent", turnId, prompt: [{ type: "text", text }] });
const answer = (turnId: string) => ev({ type: "prompt_response", turnId, response: { stopReason: "end_turn" } });
const write = (turnId: string, path: string, before: string | null, after: string, lost?: string) =>
  ev({ type: "file_written", turnId, path, before: before === null ? null : v(before), after: v(after), ...(lost ? { lost } : {}) });

describe("a turn's edits, folded from its writes", () => {
  it("keeps each file once per turn: the content before the first write and after the last, labelled by the prompt", () => {
    const s = foldEvents([
      opened,
      prompt("t1", "fix the tests"),
      write("t1", "/w/a", "a", "b"),
      write("t1", "/w/a", "b", "c"),
      write("t1", "/w/n", null, "d"),
      answer("t1"),
    ]);
    expect(turnsWithEdits(s)).toEqual([
      {
        turnId: "t1",
        label: "fix the tests",
        at: expect.any(Number),
        files: [
          { path: "/w/a", before: v("a"), after: v("c"), sessionId: "s1" },
          { path: "/w/n", before: null, after: v("d"), sessionId: "s1" },
        ],
      },
    ]);
  });

  it("names the later turn that wrote a file again, until that turn is undone; undone files are no longer offered", () => {
    const events = [
      opened,
      prompt("t1", "one"),
      write("t1", "/w/a", "a", "b"),
      answer("t1"),
      prompt("t2", "two"),
      write("t2", "/w/a", "b", "c"),
      answer("t2"),
    ];
    let s = foldEvents(events);
    expect(turnsWithEdits(s)[0].files[0].laterTurn).toBe("t2");
    s = foldEvents([ev({ type: "edits_undone", turnId: "t2", restored: ["/w/a"], deleted: [], skipped: [] })], s);
    expect(turnsWithEdits(s).map((t) => t.turnId)).toEqual(["t1"]);
    expect(turnsWithEdits(s)[0].files[0].laterTurn).toBeUndefined();
    const notice = s.items[s.items.length - 1];
    expect(notice).toMatchObject({ kind: "notice", level: "info", text: "undo of turn t2 (two): put back a" });
  });

  it("says in the transcript which files an undo left, and why", () => {
    const s = foldEvents([
      opened,
      prompt("t1", "one"),
      write("t1", "/w/a", "a", "b"),
      answer("t1"),
      ev({
        type: "edits_undone",
        turnId: "t1",
        restored: [],
        deleted: ["/w/n"],
        skipped: [{ path: "/w/a", reason: "it changed since the agent wrote it" }],
      }),
    ]);
    expect(s.items[s.items.length - 1]).toMatchObject({
      kind: "notice",
      level: "warning",
      text: "undo of turn t1 (one): deleted n (the turn created it); left a (it changed since the agent wrote it)",
    });
  });

  it("names what a turn did that conch did not see written: commands, and edits by the agent's own tools", () => {
    const tool = (toolCallId: string, kind: string, extra: Record<string, unknown> = {}) =>
      ev({
        type: "update",
        notification: {
          sessionId: "s1",
          update: {
            sessionUpdate: "tool_call",
            toolCallId,
            title: `${kind} ${toolCallId}`,
            kind: kind as never,
            status: "completed",
            ...extra,
          },
        },
      });
    const s = foldEvents([
      opened,
      prompt("t1", "go"),
      tool("c1", "execute"),
      tool("e1", "edit", { locations: [{ path: "/w/seen" }] }),
      tool("e2", "edit", { content: [{ type: "diff", path: "/w/own", oldText: "x", newText: "y" }] }),
      tool("r1", "read", { locations: [{ path: "/w/read" }] }),
      write("t1", "/w/seen", "a", "b"),
      answer("t1"),
    ]);
    expect(unseenWork(s, "t1")).toEqual({ commands: ["execute c1"], edits: ["/w/own"] });
  });

  it("finds a turn by its number or id, and carries the writes through a replay (session/load)", () => {
    const s = foldEvents([opened, prompt("t1", "one"), write("t1", "/w/a", "a", "b"), answer("t1")]);
    expect(findTurn(s, "1")).toBe("t1");
    expect(findTurn(s, "t1")).toBe("t1");
    expect(findTurn(s, "9")).toBeUndefined();
    const replayed = foldEvents([ev({ type: "replay_started", local: localHistoryOf(s) }), ev({ type: "replay_ended" })]);
    expect(turnsWithEdits(replayed).map((t) => [t.turnId, t.label])).toEqual([["t1", "one"]]);
  });
});
