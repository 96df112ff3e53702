import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import type { SessionState } from "../../src/session/state.js";
import { flush, startWithFake } from "./fake-agent.js";

/** Times (`at`, `startedAt`, `lastAgentActivityAt`, …) differ from run to run: they read as 0. */
const timeless = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (key, v: unknown) => (typeof v === "number" && /^at$|At$/.test(key) ? 0 : v)));

/** A state as it can be compared: without the two add-only caches every state shares, and its times. */
function comparable(state: SessionState): unknown {
  const { itemIndex: _index, toolByTerminal: _byTerminal, openToolIds, ...rest } = state;
  return timeless({ ...rest, openToolIds: [...openToolIds] });
}

/** One session, played the same way: bursts of chunks and calls, a call open from one burst to the next, a second turn. */
async function play(newestStateOnly: boolean): Promise<{ state: SessionState; logged: SessionEvent[] }> {
  const logged: SessionEvent[] = [];
  const { orch, agent } = await startWithFake({
    newestStateOnly,
    sink: { append: (ev) => logged.push(structuredClone(ev)), sync: () => undefined },
  });
  orch.send("one");
  await flush();
  for (let burst = 0; burst < 4; burst++) {
    agent.hooks.onBurst?.("start");
    for (let i = 0; i < 30; i++) {
      const id = `c${burst}-${i}`;
      agent.text(`w${burst}.${i} `);
      agent.update({ sessionUpdate: "tool_call", toolCallId: id, title: `read ${id}`, kind: "read", status: "in_progress" });
      // One call of each burst stays open until the next one.
      if (i === 0 && burst > 0) agent.update({ sessionUpdate: "tool_call_update", toolCallId: `c${burst - 1}-7`, status: "completed" });
      if (i !== 7) agent.update({ sessionUpdate: "tool_call_update", toolCallId: id, status: i % 5 ? "completed" : "failed" });
    }
    agent.hooks.onBurst?.("end");
    await flush();
  }
  agent.update({ sessionUpdate: "tool_call_update", toolCallId: "c3-7", status: "completed" });
  agent.respond(0);
  await orch.until((s) => s.phase === "idle");
  orch.send("two");
  await flush();
  agent.text("done");
  agent.respond(1);
  await orch.until((s) => s.phase === "idle" && s.turns.length === 2);
  const state = orch.state;
  await orch.shutdown();
  return { state, logged };
}

describe("a session whose states only the newest is read of (print mode)", () => {
  it("folds to the same state and logs the same events as one that keeps every state", async () => {
    const kept = await play(false);
    const newest = await play(true);
    expect(Object.keys(newest.state.toolCalls)).toHaveLength(120);
    expect(comparable(newest.state)).toEqual(comparable(kept.state));
    expect(timeless(newest.logged)).toEqual(timeless(kept.logged));
  });
});
