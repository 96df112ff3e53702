import { describe, expect, it } from "vitest";
import { nextAction } from "../../src/orchestrator/turn-machine.js";
import { DEFAULT_TIMING } from "../../src/session/quiet-period.js";
import type { SessionEvent } from "../../src/session/events.js";
import { profileOf } from "../../src/session/profiles/select-profile.js";
import { reduce } from "../../src/session/reduce.js";
import { initialSessionState, type SessionState } from "../../src/session/state.js";
import { allTraces, traceToEvents } from "../support/trace-events.js";

/** What the turn machine did between the recorded events: where each drain ended, and any stall. */
interface Simulation {
  /** Index of the last event before each settle. */
  settledAfter: number[];
  /** How long after that event each settle came (event clock). */
  latencies: number[];
  stalls: string[];
  state: SessionState;
}

/**
 * Plays a trace's events through the reducer with the turn machine deciding in every gap, as the
 * orchestrator's timer would: a settle or a stall due before the next event happens at its time.
 * `stretch` multiplies every gap, as a model that takes seconds to answer would.
 */
function simulate(events: SessionEvent[], stretch: number): Simulation {
  const t0 = events[0]?.at ?? 0;
  const at = (t: number) => t0 + (t - t0) * stretch;
  let state = initialSessionState();
  const out: Simulation = { settledAfter: [], latencies: [], stalls: [], state };
  const decideUntil = (limit: number, index: number, lastAt: number) => {
    let now = lastAt;
    for (let guard = 0; guard < 100 && state.phase === "draining"; guard++) {
      const action = nextAction(state, now, DEFAULT_TIMING);
      if (action.type === "settle") {
        state = reduce(state, { type: "settled", at: now });
        out.settledAfter.push(index);
        out.latencies.push(now - lastAt);
        return;
      }
      if (action.type === "stall") {
        out.stalls.push(`${action.kind}:${action.id}`);
        state = reduce(state, { type: "work_stalled", at: now, kind: action.kind, id: action.id });
        continue;
      }
      if (action.type !== "wait" || action.until === undefined || action.until >= limit) return;
      now = action.until;
    }
  };
  events.forEach((ev, i) => {
    const t = at(ev.at);
    if (i > 0) decideUntil(t, i - 1, at(events[i - 1].at));
    state = reduce(state, { ...ev, at: t } as SessionEvent);
  });
  if (events.length) decideUntil(Infinity, events.length - 1, at(events[events.length - 1].at));
  out.state = state;
  return out;
}

const traces = allTraces();

/** The traces recorded with more than one agent process: each process is a session of its own. */
const processesOf = (rel: string) => (/s6-load|c5|g5|f-load/.test(rel) ? [1, 2] : [0]);

describe("each agent's turns end where the agent says, whatever its latency", () => {
  for (const rel of traces) {
    for (const proc of processesOf(rel)) {
      const name = `${rel}${proc ? ` process ${proc}` : ""}`;
      it(`${name}: the drains end at the same events with gaps stretched 10×, at once, and nothing stalls`, () => {
        const events = traceToEvents(rel, { process: proc || undefined });
        const instant = simulate(events, 1);
        const slow = simulate(events, 10);
        expect(profileOf(instant.state).id).not.toBe("generic");
        expect(slow.settledAfter).toEqual(instant.settledAfter);
        expect(instant.stalls).toEqual([]);
        expect(slow.stalls).toEqual([]);
        // The agent's word ends the drain: no quiet period is waited out (the replay tail of gemini's load aside).
        if (!rel.includes("g5")) expect([...instant.latencies, ...slow.latencies].every((ms) => ms === 0)).toBe(true);
        expect(slow.state.phase === "idle" || slow.state.phase === "draining").toBe(true);
      });
    }
  }

  it("claude 0.100.0 s4: the drain after p1 lasts until Claude's own report on the job, 3 s later, not a quiet period after the job", () => {
    const events = traceToEvents("claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl");
    const { settledAfter, state } = simulate(events, 10);
    const lastMarker = events.findLastIndex((e) => e.type === "update" && JSON.stringify(e.notification).includes("task-notification"));
    // p2-p4 went out during the drain (the recorded client did not wait); the drain ends at the last
    // report's marker, and p5's at its response.
    expect(settledAfter).toEqual([lastMarker, events.findLastIndex((e) => e.type === "prompt_response")]);
    expect(Object.values(state.background).map((t) => t.reportedAt !== undefined)).toEqual([true, true]);
    expect(state.turns.filter((t) => t.origin === "agent")).toHaveLength(2);
  });

  it("an agent with no profile and no signal is judged by a quiet period, longer after background work ended", () => {
    const events = traceToEvents("claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl").filter(
      (e) => e.type !== "agent_ready",
    );
    const { latencies } = simulate(events, 1);
    expect(latencies.length).toBeGreaterThan(0);
    expect(latencies.every((ms) => ms >= DEFAULT_TIMING.quietMs)).toBe(true);
  });
});
