import { describe, expect, it } from "vitest";
import type { SessionEvent, SessionEventInput } from "../../../src/session/events.js";
import { reduce } from "../../../src/session/reduce.js";
import { initialSessionState, type SessionState } from "../../../src/session/state.js";
import { highlightRows } from "../../../src/ui/search/highlight-rows.js";
import { findHits, hitKey, hitSnippet, occurrences } from "../../../src/ui/search/transcript-search.js";
import { CODEX_C2, finalState } from "../components/fixtures.js";
import { atColorLevel, plainRows } from "../render/plain-rows.js";

function fold(events: SessionEventInput[]): SessionState {
  let s = initialSessionState();
  let at = 1;
  for (const e of events) s = reduce(s, { ...e, at: at++ } as SessionEvent);
  return s;
}
const update = (u: object): SessionEventInput => ({ type: "update", notification: { sessionId: "s", update: u as never } });

const SESSION = fold([
  { type: "session_started", info: { sessionId: "s", cwd: "/w", agentName: "fake", origin: "new" } },
  { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "Why is the Build red?" }] },
  update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "the build log will say" } }),
  update({
    sessionUpdate: "tool_call",
    toolCallId: "c1",
    title: "Run the build",
    kind: "execute",
    status: "completed",
    rawInput: { command: "npm run build" },
    content: [
      { type: "content", content: { type: "text", text: "```\nerror TS2304: Cannot find name 'x'\n\u001b[31mbuild failed\u001b[0m\n```" } },
    ],
  }),
  update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "The build fails on a missing name." } }),
  { type: "prompt_response", turnId: "t1", response: { stopReason: "end_turn" } },
  { type: "notice", level: "warning", text: "nothing about builds here" },
]);

describe("searching a session", () => {
  it("finds the query in prompts, thoughts, tool titles, commands, output, answers and notices, oldest first", () => {
    const hits = findHits(SESSION, "build");
    expect(hits.map((h) => h.field)).toEqual(["prompt", "thought", "title", "command", "output", "answer", "notice"]);
    expect(hits[4].text).toContain("build failed");
    // Program output is searched as the text it shows: its colours are not part of it.
    expect(hits[4].text).not.toContain("\u001b");
  });

  it("matches any case for a query in lower case, and exactly once it has a capital", () => {
    expect(findHits(SESSION, "build").some((h) => h.field === "prompt")).toBe(true);
    expect(findHits(SESSION, "Build").map((h) => h.field)).toEqual(["prompt"]);
    expect(occurrences("a Bb bB", "bb")).toEqual([2, 5]);
  });

  it("numbers the occurrences within an item, so a hit keeps its identity while the session grows", () => {
    const hits = findHits(SESSION, "the");
    const tool = hits.filter((h) => h.field === "title" || h.field === "output" || h.field === "command");
    expect(tool.map((h) => h.occurrence)).toEqual([0]);
    const grown = reduce(SESSION, { type: "notice", at: 99, level: "info", text: "the end" });
    const again = findHits(grown, "the");
    expect(again.map(hitKey).slice(0, hits.length)).toEqual(hits.map(hitKey));
    expect(again).toHaveLength(hits.length + 1);
  });

  it("searches real agents' tool calls (codex c2: the command and what it printed)", () => {
    const state = finalState(CODEX_C2);
    const fields = findHits(state, "hello").map((h) => h.field);
    expect(fields).toContain("prompt");
    expect(fields).toContain("title");
    expect(fields).toContain("output");
  });

  it("finds nothing for an empty query", () => {
    expect(findHits(SESSION, "")).toEqual([]);
    expect(findHits(SESSION, "   ")).toEqual([]);
  });

  it("shows a hit on one line with context on both sides", () => {
    const [answer] = findHits(SESSION, "missing");
    expect(hitSnippet(answer, 80)).toEqual({ before: "The build fails on a ", match: "missing", after: " name." });
    const short = hitSnippet(answer, 20);
    expect(short.match).toBe("missing");
    expect(short.before.length + short.match.length + short.after.length).toBeLessThanOrEqual(20);
    expect(short.before.startsWith("…") || short.after.endsWith("…")).toBe(true);
  });
});

describe("marking matches in drawn rows", () => {
  it("marks every occurrence, the current one in reverse video, and says on which row each is", () => {
    const rows = ["\u001b[1mbuild\u001b[22m and BUILD", "nothing", "rebuild"];
    const { rows: marked, matchRows } = atColorLevel(1, () => highlightRows(rows, "build", 1));
    expect(matchRows).toEqual([0, 0, 2]);
    expect(marked[0]).toBe("\u001b[1m\u001b[4mbuild\u001b[22m\u001b[4m\u001b[24m and \u001b[7mBUILD\u001b[27m");
    expect(marked[2]).toBe("re\u001b[4mbuild\u001b[24m");
    expect(plainRows(marked)).toBe("build and BUILD\nnothing\nrebuild");
  });

  it("leaves plain rows plain where the output takes no attributes", () => {
    const { rows, matchRows } = atColorLevel(0, () => highlightRows(["a build"], "build", 0));
    expect(rows).toEqual(["a build"]);
    expect(matchRows).toEqual([0]);
  });
});
