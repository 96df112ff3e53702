import { describe, expect, it } from "vitest";
import type { SessionState } from "../../src/session/state.js";
import { isSettled } from "../../src/ui/transcript/settled-items.js";
import { TranscriptPrinter } from "../../src/ui/transcript/transcript-printer.js";
import { FakeSession } from "./fake-session.js";

/** Each item's kind, with a ✓ when it can no longer change. */
const settled = (state: SessionState) => state.items.map((item, i) => `${item.kind}${isSettled(state, i) ? " ✓" : ""}`);

describe("which transcript items can no longer change", () => {
  it("a prompt is settled at once, the streaming answer only when its turn ends", () => {
    const s = new FakeSession().open();
    const turn = s.prompt("hello");
    s.chunk("Hel");
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "agent"]);
    s.chunk("lo!");
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "agent"]);
    s.respond(turn);
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "agent ✓"]);
    expect(s.state.items[2]).toMatchObject({ text: "Hello!" });
  });

  it("text followed by a tool call is settled, the open tool call is not, even after later text", () => {
    const s = new FakeSession().open();
    const turn = s.prompt("go");
    s.chunk("Starting a job.");
    s.update({ sessionUpdate: "tool_call", toolCallId: "bg", title: "sleep 9", kind: "execute", status: "in_progress" });
    s.chunk("It runs in the background.");
    s.respond(turn);
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "agent ✓", "tool", "agent ✓"]);
    s.update({ sessionUpdate: "tool_call_update", toolCallId: "bg", status: "completed" });
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "agent ✓", "tool ✓", "agent ✓"]);
  });

  it("a plan is not settled until its turn ends, because the agent replaces it in place", () => {
    const s = new FakeSession().open();
    const turn = s.prompt("plan it");
    s.update({ sessionUpdate: "plan", entries: [{ content: "one", priority: "high", status: "pending" }] });
    s.chunk("Working on it.");
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "plan", "agent"]);
    s.respond(turn);
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "plan ✓", "agent ✓"]);
  });

  it("a finished tool call is not settled while it is the newest item of a running turn", () => {
    const s = new FakeSession().open();
    s.prompt("read");
    s.update({ sessionUpdate: "tool_call", toolCallId: "r", title: "Read a.ts", kind: "read", status: "completed" });
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "tool"]);
    s.chunk("Done reading.");
    expect(settled(s.state)).toEqual(["turn ✓", "user ✓", "tool ✓", "agent"]);
  });

  it("after /clear, prints only what settles from then on, never an item twice", () => {
    const s = new FakeSession().open();
    const printer = new TranscriptPrinter((item) => [item.kind === "user" ? `user:${item.text}` : item.kind]);
    const t1 = s.prompt("one");
    s.respond(t1);
    expect(printer.plan(s.state, 80, 1000, 10).rows.filter(Boolean)).toEqual(["turn", "user:one", "no_reply"]);
    // Settled but not yet printed when the screen is cleared: never printed.
    const t2 = s.prompt("two");
    printer.skip(s.state);
    expect(printer.plan(s.state, 80, 1000, 10).rows).toEqual([]);
    s.respond(t2);
    // What comes after the clear is printed: here the line that says the agent answered nothing.
    expect(printer.plan(s.state, 80, 1000, 10).rows.filter(Boolean)).toEqual(["no_reply"]);
    const t3 = s.prompt("three");
    s.respond(t3);
    expect(printer.plan(s.state, 80, 1000, 10).rows.filter(Boolean)).toEqual(["turn", "user:three", "no_reply"]);
  });
});
