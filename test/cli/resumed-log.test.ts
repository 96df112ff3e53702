import { describe, expect, it } from "vitest";
import { readResumedLog } from "../../src/cli/resumed-log.js";
import type { SessionEvent } from "../../src/session/events.js";
import { localHistoryOf } from "../../src/session/local-history.js";
import { foldEvents } from "../../src/session/reduce.js";
import { loggedTrace, logOf, longSession, Script } from "../support/session-script.js";
import { allTraces } from "../support/trace-events.js";

/** What a load takes from conch's own log, as it goes into `replay_started`. */
const localOf = (events: readonly SessionEvent[], state = foldEvents(events)) => JSON.stringify(localHistoryOf(state));

/** The log read as a load reads it, and as it was read before anything was left out. */
async function bothWays(events: readonly SessionEvent[]) {
  const file = logOf(events);
  const before = await readResumedLog(file);
  const load = await readResumedLog(file, () => true);
  return { file, before, load, left: before.events.length - load.events.length };
}

describe("a session/load resume leaves the agent's text in conch's own log unread", () => {
  it("what the load takes from the log is the same, byte for byte, with most of a long log left unparsed", async () => {
    const s = longSession();
    const { before, load, left } = await bothWays(s.events);
    expect(localOf(load.events, load.state)).toBe(localOf(before.events, before.state));
    expect(localOf(before.events, before.state)).toBe(localOf(s.events));
    expect(JSON.parse(localOf(s.events)).interrupted.length).toBeGreaterThan(0);
    expect(left).toBeGreaterThan(s.events.length / 3);
    // The whole log is still there for a caller that shows conch's own transcript after all.
    expect(load.whole).toBeDefined();
    expect((await load.whole!()).events).toEqual(before.events);
  });

  it("reads every line until it is known that the agent replays the session, and all of them when it does not", async () => {
    const s = longSession();
    const file = logOf(s.events);
    expect((await readResumedLog(file, () => false)).whole).toBeUndefined();
    let lines = 0;
    const late = await readResumedLog(file, () => ++lines > 200);
    const early = await readResumedLog(file, () => true);
    expect(late.events.length).toBeGreaterThan(early.events.length);
    expect(localOf(late.events, late.state)).toBe(localOf(s.events));
  });

  it("keeps a subagent's text (it goes to its call), and the agent's text with no prompt in flight (its own turn)", async () => {
    const s = new Script();
    s.turn("delegate", (s) => {
      s.update({ sessionUpdate: "subagent_spawned", subagentSessionId: "sub-1", name: "helper", task: "look" });
      s.text("The helper found it.", "agent_message_chunk", "sub-1");
      s.text("Asked a helper.");
    });
    s.text("A report of my own, after the prompt.");
    s.update({ sessionUpdate: "tool_call", toolCallId: "own-1", title: "own call", kind: "execute", status: "completed" });
    s.turn("next");
    const { before, load } = await bothWays(s.events);
    const texts = (events: readonly SessionEvent[]) =>
      events.flatMap((ev) =>
        ev.type === "update" && "content" in ev.notification.update ? [JSON.stringify(ev.notification.update.content)] : [],
      );
    expect(texts(load.events).join()).toContain("The helper found it.");
    expect(texts(load.events).join()).toContain("A report of my own");
    expect(texts(load.events).join()).not.toContain("Asked a helper.");
    expect(localOf(load.events, load.state)).toBe(localOf(before.events, before.state));
    expect(JSON.stringify(localHistoryOf(load.state!).tools["subagent:sub-1"])).toContain("The helper found it.");
  });

  it("gemini's mode text: the same local history whether it came in a prompt or on its own", async () => {
    const s = longSession("gemini");
    s.text("[MODE_UPDATE] plan");
    s.turn("go on", (s) => s.text("[MODE_UPDATE] default").text("Going on."));
    const { before, load, left } = await bothWays(s.events);
    expect(left).toBeGreaterThan(0);
    expect(localOf(load.events, load.state)).toBe(localOf(before.events, before.state));
  });

  it("reads the log whole where a left-out chunk could change it: a write in the agent's own turn, a user chunk after left-out text", async () => {
    const own = longSession();
    own.text("Reporting on the background job.");
    const ownTurn = foldEvents(own.events).currentTurnId!;
    expect(ownTurn).toMatch(/^a/);
    own.add({ type: "file_written", turnId: ownTurn, path: "/p/report.md", before: null, after: { bytes: 1, sha256: "r" } });
    own.add({ type: "checkpoint", turnId: ownTurn, stage: "end", tree: "tree-own" });
    const echoed = longSession();
    echoed.turn("echo", (s) => s.text("Part one.").text("an echo", "user_message_chunk").text("Part two."));
    for (const s of [own, echoed]) {
      const { before, load } = await bothWays(s.events);
      expect(load.whole).toBeUndefined();
      expect(load.events).toEqual(before.events);
      expect(localOf(load.events, load.state)).toBe(localOf(s.events));
    }
    expect(localOf(own.events)).toContain("the agent's own turn");
  });

  it("every recorded agent trace: the same local history", async () => {
    let left = 0;
    for (const trace of allTraces()) {
      const events = loggedTrace(trace);
      const both = await bothWays(events);
      left += both.left;
      expect(localOf(both.load.events, both.load.state), trace).toBe(localOf(both.before.events, both.before.state));
    }
    expect(left).toBeGreaterThan(0);
  });
});
