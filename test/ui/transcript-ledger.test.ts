import { describe, expect, it } from "vitest";
import { TranscriptLedger } from "../../src/ui/transcript/transcript-ledger.js";
import { FakeSession } from "./fake-session.js";

const kinds = (items: { kind: string }[]) => items.map((i) => i.kind);

describe("which transcript items are printed and which stay live", () => {
  it("prints a prompt at once and keeps the streaming answer live until its turn ends", () => {
    const s = new FakeSession().open();
    const ledger = new TranscriptLedger();
    const turn = s.prompt("hello");
    s.chunk("Hel");
    let split = ledger.update(s.state);
    expect(kinds(split.printed)).toEqual(["turn", "user"]);
    expect(kinds(split.live)).toEqual(["agent"]);
    s.chunk("lo!");
    split = ledger.update(s.state);
    expect(kinds(split.printed)).toEqual(["turn", "user"]);
    s.respond(turn);
    split = ledger.update(s.state);
    expect(kinds(split.printed)).toEqual(["turn", "user", "agent"]);
    expect(split.live).toEqual([]);
    expect(split.printed[2]).toMatchObject({ text: "Hello!" });
  });

  it("prints text followed by a tool call, but keeps the open tool call live after later text", () => {
    const s = new FakeSession().open();
    const ledger = new TranscriptLedger();
    const turn = s.prompt("go");
    s.chunk("Starting a job.");
    s.update({ sessionUpdate: "tool_call", toolCallId: "bg", title: "sleep 9", kind: "execute", status: "in_progress" });
    s.chunk("It runs in the background.");
    s.respond(turn);
    let split = ledger.update(s.state);
    expect(kinds(split.printed)).toEqual(["turn", "user", "agent", "agent"]);
    expect(kinds(split.live)).toEqual(["tool"]);
    s.update({ sessionUpdate: "tool_call_update", toolCallId: "bg", status: "completed" });
    split = ledger.update(s.state);
    expect(kinds(split.printed)).toEqual(["turn", "user", "agent", "agent", "tool"]);
    expect(split.live).toEqual([]);
  });

  it("keeps a plan live until its turn ends, because the agent replaces it in place", () => {
    const s = new FakeSession().open();
    const ledger = new TranscriptLedger();
    const turn = s.prompt("plan it");
    s.update({ sessionUpdate: "plan", entries: [{ content: "one", priority: "high", status: "pending" }] });
    s.chunk("Working on it.");
    expect(kinds(ledger.update(s.state).live)).toEqual(["plan", "agent"]);
    s.respond(turn);
    expect(ledger.update(s.state).live).toEqual([]);
  });

  it("does not print a finished tool call while it is the newest item of a running turn", () => {
    const s = new FakeSession().open();
    const ledger = new TranscriptLedger();
    s.prompt("read");
    s.update({ sessionUpdate: "tool_call", toolCallId: "r", title: "Read a.ts", kind: "read", status: "completed" });
    expect(kinds(ledger.update(s.state).live)).toEqual(["tool"]);
    s.chunk("Done reading.");
    expect(kinds(ledger.update(s.state).live)).toEqual(["agent"]);
  });

  it("after clear, prints only what settles from then on, never an item twice", () => {
    const s = new FakeSession().open();
    const ledger = new TranscriptLedger();
    const t1 = s.prompt("one");
    s.respond(t1);
    expect(ledger.update(s.state).printed).toHaveLength(2);
    ledger.clear();
    expect(ledger.update(s.state).printed).toEqual([]);
    const t2 = s.prompt("two");
    s.respond(t2);
    expect(kinds(ledger.update(s.state).printed)).toEqual(["turn", "user"]);
  });
});

describe("printing a long history", () => {
  it("prints settled items a batch at a time, in order, until nothing is left", async () => {
    const { foldEvents } = await import("../../src/session/reduce.js");
    const { TranscriptLedger, PRINT_BATCH } = await import("../../src/ui/transcript/transcript-ledger.js");
    const events = Array.from({ length: 400 }, (_, i) => ({ type: "notice" as const, at: i, level: "info" as const, text: `line ${i}` }));
    const state = foldEvents(events);
    const ledger = new TranscriptLedger();
    const first = ledger.update(state);
    expect(first.printed).toHaveLength(PRINT_BATCH);
    expect(first.more).toBe(true);
    let split = first;
    while (split.more) split = ledger.update(state);
    expect(split.printed.map((i) => (i as { text: string }).text)).toEqual(events.map((e) => e.text));
  });
});
