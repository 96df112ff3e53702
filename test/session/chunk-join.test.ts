import { describe, expect, it } from "vitest";
import { joinChunks } from "../../src/session/chunk-join.js";
import type { SessionEvent } from "../../src/session/events.js";
import { profileOf } from "../../src/session/profiles/select-profile.js";
import { foldEvents } from "../../src/session/reduce.js";
import type { SessionState } from "../../src/session/state.js";
import { allTraces, traceToEvents } from "../support/trace-events.js";
import { rng as mulberry32 } from "../support/seeded-random.js";

/** The records a recorder writes for these events when each flush holds `sizes[i]` of them (cycled). */
function recorded(events: SessionEvent[], sizes: number[]): SessionEvent[] {
  const out: SessionEvent[] = [];
  let state: SessionState | undefined;
  for (let i = 0, k = 0; i < events.length; k++) {
    const batch = events.slice(i, i + sizes[k % sizes.length]);
    i += batch.length;
    state = foldEvents(batch, state);
    const s = state;
    out.push(
      ...joinChunks(batch, {
        sessionId: s.info?.sessionId,
        profile: profileOf(s),
        normalize: { tool: (id) => s.toolCalls[id], background: s.background, replayTail: s.replayTail === true },
      }),
    );
  }
  return out;
}

/** A state without what counts events (`seq`, a call's `lastSeq`): the only part a joined record changes. */
function comparable(s: SessionState): unknown {
  const toolCalls = Object.fromEntries(Object.entries(s.toolCalls).map(([id, t]) => [id, { ...t, lastSeq: 0 }]));
  return { ...s, seq: 0, toolCalls };
}

const update = (at: number, u: Record<string, unknown>, sessionId = "s1"): SessionEvent =>
  ({ type: "update", at, notification: { sessionId, update: u } }) as SessionEvent;
const chunk = (at: number, text: string, extra: Record<string, unknown> = {}, kind = "agent_message_chunk"): SessionEvent =>
  update(at, { sessionUpdate: kind, content: { type: "text", text }, ...extra });

/** A session of `agentName` with random traffic built to find where a join could fold differently. */
function randomSession(rand: () => number, agentName: string, n: number): SessionEvent[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const texts = [
    "",
    " ",
    "\n",
    "\n\n",
    "  \n",
    "a",
    "word ",
    "\n\nHello",
    "[MODE_UPDATE] ",
    "plan",
    "[MODE_UPDATE] plan",
    "<system-reminder>x</system-reminder>",
  ];
  const events: SessionEvent[] = [
    { type: "agent_ready", at: 1, info: { name: agentName, version: "0.23.1" } },
    { type: "session_started", at: 2, info: { sessionId: "s1", cwd: "/w", agentName, origin: "new" } },
  ];
  let at = 10;
  let turn = 0;
  let open = false;
  let tool = 0;
  for (let i = 0; i < n; i++) {
    at += pick([0, 1, 7]);
    const r = rand();
    if (r < 0.2) {
      // A burst to one message, as agents stream.
      const extra = pick<Record<string, unknown>>([{}, { messageId: "m1" }, { messageId: "m2" }]);
      const kind = pick(["agent_message_chunk", "agent_thought_chunk"]);
      for (let k = 2 + Math.floor(rand() * 8); k > 0; k--) events.push(chunk(at++, pick(texts), extra, kind));
    } else if (r < 0.55) {
      const extra = pick<Record<string, unknown>>([
        {},
        {},
        { messageId: "m1" },
        { messageId: "m2" },
        { messageId: null },
        { _meta: { x: 1 } },
      ]);
      events.push(
        chunk(at, pick(texts), extra, pick(["agent_message_chunk", "agent_message_chunk", "agent_thought_chunk", "user_message_chunk"])),
      );
    } else if (r < 0.6) {
      events.push(chunk(at, pick(texts), {}, "agent_message_chunk"));
      events[events.length - 1] = {
        ...events[events.length - 1],
        notification: { sessionId: "sub", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } },
      } as SessionEvent;
    } else if (r < 0.7) {
      if (open) events.push({ type: "prompt_response", at, turnId: `t${turn}`, response: { stopReason: "end_turn" } });
      else events.push({ type: "prompt_sent", at, turnId: `t${++turn}`, prompt: [{ type: "text", text: "go" }] });
      open = !open;
    } else if (r < 0.8) {
      events.push(update(at, { sessionUpdate: "tool_call", toolCallId: `c${++tool}`, title: "read", kind: "read", status: "in_progress" }));
    } else if (r < 0.85) {
      events.push(update(at, { sessionUpdate: "tool_call_update", toolCallId: `c${tool}`, status: "completed" }));
    } else if (r < 0.9) {
      events.push({ type: "settled", at });
    } else {
      events.push(chunk(at, pick(["more ", "text", "x\n"]), { messageId: "m1" }));
    }
  }
  return events;
}

describe("one log record per run of chunks to a message", () => {
  const traces = allTraces();

  it.each(traces)("%s: the joined records fold to the state the events fold to", (rel) => {
    const events = traceToEvents(rel);
    const whole = foldEvents(events);
    for (const sizes of [[1], [3], [64], [7, 1, 30, 2], [100_000]]) {
      const records = recorded(events, sizes);
      expect(comparable(foldEvents(records))).toEqual(comparable(whole));
    }
  });

  it("random traffic of every profile, cut into random batches, folds the same from the records", () => {
    const rand = mulberry32(24);
    let joined = 0;
    for (const agent of ["claude-code-acp", "gemini-cli", "codex-acp", "opencode", "some-agent"]) {
      for (let round = 0; round < 40; round++) {
        const events = randomSession(rand, agent, 150);
        const sizes = Array.from({ length: 5 }, () => 1 + Math.floor(rand() * 40));
        const records = recorded(events, sizes);
        joined += events.length - records.length;
        expect(comparable(foldEvents(records))).toEqual(comparable(foldEvents(events)));
      }
    }
    // The corpus does exercise the join, not only the cases it leaves alone.
    expect(joined).toBeGreaterThan(500);
  });

  it("a flood of chunks to one message is its first chunk and one joined record, stamped with the last one's time", () => {
    const events: SessionEvent[] = [
      { type: "agent_ready", at: 1, info: { name: "some-agent", version: "1" } },
      { type: "session_started", at: 2, info: { sessionId: "s1", cwd: "/w", agentName: "x", origin: "new" } },
      { type: "prompt_sent", at: 3, turnId: "t1", prompt: [{ type: "text", text: "go" }] },
    ];
    const flood = Array.from({ length: 1000 }, (_, i) => chunk(10 + i, `w${i} `, { messageId: "m1" }));
    const state = foldEvents([...events, ...flood]);
    const records = joinChunks(flood, {
      sessionId: "s1",
      profile: profileOf(state),
      normalize: { tool: () => undefined, background: {}, replayTail: false },
    });
    expect(records).toHaveLength(2);
    expect(records[0]).toBe(flood[0]);
    expect(records[1]).toEqual(
      chunk(
        1009,
        flood
          .slice(1)
          .map((_, i) => `w${i + 1} `)
          .join(""),
        { messageId: "m1" },
      ),
    );
  });

  it("chunks a profile reads as more than text, from a subagent, with _meta, or blank at the start of a run stay as they came", () => {
    const state = foldEvents([
      { type: "agent_ready", at: 1, info: { name: "gemini-cli", version: "0.61.0" } },
      { type: "session_started", at: 2, info: { sessionId: "s1", cwd: "/w", agentName: "gemini", origin: "new" } },
    ]);
    const ctx = { sessionId: "s1", profile: profileOf(state), normalize: { tool: () => undefined, background: {}, replayTail: false } };
    const cases: SessionEvent[][] = [
      [chunk(1, "x"), chunk(2, "[MODE_UPDATE] "), chunk(3, "plan")],
      [chunk(1, "x"), chunk(2, "a", { _meta: { y: 1 } }), chunk(3, "b", { _meta: { y: 1 } })],
      [chunk(1, "  "), chunk(2, "a"), chunk(3, "b")].slice(0, 2),
      [chunk(1, "x"), update(2, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "a" } }, "sub"), chunk(3, "b")],
      [chunk(1, "x"), chunk(2, "a", {}, "user_message_chunk"), chunk(3, "b", {}, "user_message_chunk")],
    ];
    for (const events of cases) expect(joinChunks(events, ctx)).toEqual(events);
  });
});
