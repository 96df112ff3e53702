import { describe, expect, it } from "vitest";
import type { SessionState } from "../../src/session/state.js";
import { flush, startWithFake } from "./fake-agent.js";

/** A state as it can be compared later: a deep copy without the two add-only caches every state shares. */
function copyOf(state: SessionState): unknown {
  const { itemIndex: _index, toolByTerminal: _byTerminal, ...rest } = state;
  return structuredClone(rest);
}

describe("published states", () => {
  it("are snapshots: a state kept by a listener is frozen and never changes as the session goes on", async () => {
    const { orch, agent } = await startWithFake();
    const kept: { state: SessionState; copy: unknown }[] = [];
    orch.subscribe((state) => kept.push({ state, copy: copyOf(state) }));
    orch.send("first");
    orch.send("second");
    agent.text("Hello ");
    agent.update({ sessionUpdate: "tool_call", toolCallId: "c1", title: "ls", kind: "execute", status: "in_progress" });
    agent.text("world.");
    agent.update({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed" });
    agent.respond(0);
    await flush();
    await orch.until((s) => s.phase === "prompting" && s.queue.length === 0);
    expect(kept.length).toBeGreaterThan(5);
    for (const { state, copy } of kept) {
      expect(Object.isFrozen(state)).toBe(true);
      expect(copyOf(state)).toEqual(copy);
    }
    await orch.shutdown();
  });

  it("a burst's chunks, added to one message in place, never change a state handed out before", async () => {
    const { orch, agent } = await startWithFake();
    const kept: { state: SessionState; copy: unknown }[] = [];
    orch.subscribe((state) => kept.push({ state, copy: copyOf(state) }));
    orch.send("go");
    await flush();
    for (let burst = 0; burst < 3; burst++) {
      agent.hooks.onBurst?.("start");
      for (let i = 0; i < 50; i++) agent.text(`b${burst}w${i} `);
      agent.hooks.onBurst?.("end");
      await flush();
    }
    const answer = Array.from({ length: 150 }, (_, k) => `b${Math.floor(k / 50)}w${k % 50} `).join("");
    expect(orch.state.items.filter((i) => i.kind === "agent").map((i) => ("text" in i ? i.text : ""))).toEqual([answer]);
    expect(kept.length).toBeGreaterThan(3);
    for (const { state, copy } of kept) expect(copyOf(state)).toEqual(copy);
    await orch.shutdown();
  });
});
