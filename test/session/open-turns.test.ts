import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { foldEvents, reduce } from "../../src/session/reduce.js";
import type { SessionState } from "../../src/session/state.js";
import { allTraces, traceToEvents } from "../support/trace-events.js";

/** `firstOpenTurn` says where ending the open turns starts: every turn before it has ended, and it is open itself. */
function expectFirstOpenTurnExact(s: SessionState): void {
  const first = s.turns.findIndex((t) => t.endedAt === undefined);
  expect(s.firstOpenTurn).toBe(first < 0 ? s.turns.length : first);
}

const update = (at: number, u: Record<string, unknown>): SessionEvent =>
  ({ type: "update", at, history: true, notification: { sessionId: "s1", update: u } }) as SessionEvent;
const text = (at: number, kind: string, t: string) => update(at, { sessionUpdate: kind, content: { type: "text", text: t } });

/** A replay of `n` history turns, then prompts answered one after another, some with an agent turn of its own between. */
function replayThenPrompts(n: number): SessionEvent[] {
  const events: SessionEvent[] = [
    { type: "session_started", at: 0, info: { sessionId: "s1", cwd: "/w", agentName: "demo", origin: "load" } },
    { type: "replay_started", at: 0 },
  ];
  for (let i = 0; i < n; i++) events.push(text(i, "user_message_chunk", `q${i}`), text(i, "agent_message_chunk", `a${i}`));
  events.push({ type: "replay_ended", at: n });
  for (let i = 0; i < n; i++) {
    const at = n + 10 * i;
    events.push({ type: "prompt_sent", at, turnId: `t${i + 1}`, prompt: [{ type: "text", text: `p${i}` }] });
    events.push({ ...text(at + 1, "agent_message_chunk", `r${i}`), history: false } as SessionEvent);
    events.push({ type: "prompt_response", at: at + 2, turnId: `t${i + 1}`, response: { stopReason: "end_turn" } });
    if (i % 3 === 0) events.push({ ...text(at + 3, "agent_message_chunk", `own${i}`), history: false } as SessionEvent);
    events.push({ type: "settled", at: at + 4 });
  }
  return events;
}

describe("the open turns", () => {
  const traces = allTraces();

  it.each(traces)("%s: the first open turn is known after every event", (rel) => {
    let s = foldEvents([]);
    for (const ev of traceToEvents(rel)) {
      s = reduce(s, ev);
      expectFirstOpenTurnExact(s);
    }
  });

  it("a replay's turns end when it ends; each prompt after it ends the agent's own turns before it, as one fold or event by event", () => {
    const events = replayThenPrompts(40);
    let s = foldEvents([]);
    for (const ev of events) {
      s = reduce(s, ev);
      expectFirstOpenTurnExact(s);
    }
    const whole = foldEvents(events);
    expect(whole.turns).toEqual(s.turns);
    expect(whole.firstOpenTurn).toBe(s.firstOpenTurn);
    expect(s.turns.filter((t) => t.origin === "history")).toHaveLength(40);
    expect(s.turns.filter((t) => t.origin === "agent").length).toBeGreaterThan(0);
    expect(s.turns.every((t) => t.endedAt !== undefined)).toBe(true);
  });
});
