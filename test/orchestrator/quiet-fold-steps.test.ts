import { describe, expect, it } from "vitest";
import { SessionEventQueue } from "../../src/orchestrator/event-queue.js";
import type { SessionEvent, SessionEventInput } from "../../src/session/events.js";
import { foldInterruptedRuns } from "../../src/session/interrupted-runs.js";
import type { SessionState } from "../../src/session/state.js";
import { loggedTrace, longSession } from "../support/session-script.js";
import { allTraces } from "../support/trace-events.js";
import { flush, startWithFake } from "./fake-agent.js";

/** A session's log as conch writes it: two turns, bursts of chunks and tool calls (several hundred events). */
async function recordedLog(): Promise<SessionEvent[]> {
  const logged: SessionEvent[] = [];
  const { orch, agent } = await startWithFake({ sink: { append: (ev) => logged.push(structuredClone(ev)), sync: () => undefined } });
  for (const [turn, text] of ["one", "two"].entries()) {
    orch.send(text);
    await flush();
    agent.hooks.onBurst?.("start");
    for (let i = 0; i < 120; i++) {
      const id = `c${turn}-${i}`;
      agent.text(`w${turn}.${i} `);
      agent.update({ sessionUpdate: "tool_call", toolCallId: id, title: `read ${id}`, kind: "read", status: "in_progress" });
      agent.update({ sessionUpdate: "tool_call_update", toolCallId: id, status: i % 5 ? "completed" : "failed" });
    }
    agent.hooks.onBurst?.("end");
    await flush();
    agent.respond(turn);
    await orch.until((s) => s.phase === "idle" && s.turns.length === turn + 1);
  }
  await orch.shutdown();
  return logged;
}

function queue(observed: SessionEvent[] = []): SessionEventQueue {
  return new SessionEventQueue({ now: () => 1, observe: (ev) => observed.push(ev), decide: () => undefined });
}

/** The state without its add-only caches. */
function comparable(state: SessionState): unknown {
  const { itemIndex: _index, toolByTerminal: _byTerminal, openToolIds, ...rest } = state;
  return { ...rest, openToolIds: [...openToolIds] };
}

describe("a resumed log folded quietly in steps", () => {
  it("folds to the state a fold in one go reaches, each event observed once, with turns of the event loop between steps", async () => {
    const log = await recordedLog();
    expect(log.length).toBeGreaterThan(600);
    const once = queue();
    once.foldQuietly(log);
    const observed: SessionEvent[] = [];
    const stepped = queue(observed);
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    let published = 0;
    stepped.subscribe(() => published++);
    // No time for a step: one chunk of events per turn of the event loop.
    await stepped.foldQuietlyInSteps(log, 0);
    clearInterval(counting);
    expect(comparable(stepped.state)).toEqual(comparable(once.state));
    expect(observed).toEqual(log);
    expect(published).toBe(1);
    expect(turns).toBeGreaterThan(0);
  });

  it.each(["folded in steps", "folded by its reader"])(
    "tells observe of the log's events a step at a time, not all in one task: %s",
    async (how) => {
      const log = await recordedLog();
      const once = queue();
      once.foldQuietly(log);
      let turns = 0;
      let folding = true;
      const tick = () => {
        turns++;
        if (folding) setImmediate(tick);
      };
      setImmediate(tick);
      const seenAt: number[] = [];
      const stepped = new SessionEventQueue({ now: () => 1, observe: () => seenAt.push(turns), decide: () => undefined });
      await (how === "folded in steps" ? stepped.foldQuietlyInSteps(log, 0) : stepped.foldLogQuietly(log, once.state, 0));
      folding = false;
      expect(seenAt).toHaveLength(log.length);
      // One part of events a turn of the event loop: as many turns saw observations as there were parts.
      expect(new Set(seenAt).size).toBeGreaterThanOrEqual(Math.floor(log.length / 256));
    },
  );

  it("handles what is dispatched meanwhile after the log, as a fold in one go would have", async () => {
    const log = await recordedLog();
    const stepped = queue();
    const folding = stepped.foldQuietlyInSteps(log, 0);
    stepped.dispatch({ type: "notice", level: "info", text: "typed while the log was read" });
    expect(stepped.state.items).toHaveLength(0);
    await folding;
    const once = queue();
    once.foldQuietly(log);
    once.dispatch({ type: "notice", level: "info", text: "typed while the log was read" });
    expect(comparable(stepped.state)).toEqual(comparable(once.state));
    expect(stepped.state.items.at(-1)).toMatchObject({ kind: "notice", text: "typed while the log was read" });
  });
});

/** The whole state, its caches included, as text. */
const whole = (state: SessionState) =>
  JSON.stringify(state, (_key, value: unknown) => (value instanceof Map || value instanceof Set ? [...value] : value));

describe("a resumed log its reader folded already", () => {
  const ready: SessionEventInput = { type: "agent_ready", info: { name: "agent", version: "2" }, capabilities: { loadSession: false } };

  it("is taken as folded when the session holds only its agent_ready: the same state, the same events observed", async () => {
    const logs = [await recordedLog(), longSession().events, ...allTraces().map(loggedTrace)];
    for (const [n, events] of logs.entries()) {
      const { events: log, state: folded } = foldInterruptedRuns(events);
      const seen: SessionEvent[][] = [[], []];
      const here = queue(seen[0]);
      here.dispatch(ready);
      await here.foldQuietlyInSteps(log);
      const taken = queue(seen[1]);
      taken.dispatch(ready);
      await taken.foldLogQuietly(log, folded);
      // Not folded again: the reader's transcript itself.
      expect(taken.state.items, `log ${n}`).toBe(folded.items);
      expect(whole(taken.state), `log ${n}`).toBe(whole(here.state));
      expect(seen[1]).toEqual(seen[0]);
    }
  });

  it("is folded again when the session holds more: a prompt queued before the session opened", async () => {
    const { events: log, state: folded } = foldInterruptedRuns(longSession().events);
    const queued: SessionEventInput = { type: "queue_added", id: "q1", text: "typed early" };
    const here = queue();
    here.dispatch(ready);
    here.dispatch(queued);
    await here.foldQuietlyInSteps(log);
    const taken = queue();
    taken.dispatch(ready);
    taken.dispatch(queued);
    await taken.foldLogQuietly(log, folded);
    expect(taken.state.items).not.toBe(folded.items);
    expect(whole(taken.state)).toBe(whole(here.state));
    expect(taken.state.queue).toHaveLength(1);
  });
});

describe("the agent running now, after a resumed log is folded into its session", () => {
  // The log's agent steered and was stopping when the log ended; the one running now does neither.
  const old: SessionEvent = {
    type: "agent_ready",
    at: 1,
    info: { name: "agent", version: "1" },
    capabilities: { loadSession: true },
    steering: true,
  };
  const now: SessionEventInput = { type: "agent_ready", info: { name: "agent", version: "2" }, capabilities: { loadSession: false } };
  const log = (): SessionEvent[] => [old, ...longSession().events.slice(1), { type: "agent_stopping", at: 2 }];

  it.each(["folded in one go", "folded in steps", "folded by its reader"])(
    "is the session's agent, not the last one the log saw: %s",
    async (how) => {
      const events = log();
      const q = queue();
      q.dispatch(now);
      if (how === "folded in one go") q.foldQuietly(events);
      else if (how === "folded in steps") await q.foldQuietlyInSteps(events, 0);
      else await q.foldLogQuietly(events, foldInterruptedRuns(events).state, 0);
      expect(q.state.agent).toEqual({ info: { name: "agent", version: "2" }, capabilities: { loadSession: false } });
      expect(q.state.agentStoppingAt).toBeUndefined();
      // The log's transcript is there all the same.
      expect(q.state.turns.length).toBeGreaterThan(0);
    },
  );
});
