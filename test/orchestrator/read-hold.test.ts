import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flush, startWithFake } from "./fake-agent.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const chunk = (text: string) => ({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

describe("reads held for a slow consumer (print mode's stdout behind its reader)", () => {
  it("a quiet period does not end the turn while reads wait: what the agent said meanwhile is still in its pipe", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 50, stallMs: 600_000 } });
    let release!: () => void;
    let behind = true;
    orch.holdReadsWhile(() => (behind ? new Promise<void>((resolve) => (release = resolve)) : undefined));
    orch.send("hello");
    agent.update(chunk("first "));
    agent.respond(0);
    await flush();
    // The stream asks after a read, and the consumer is behind: reads wait.
    const held = agent.hooks.holdReads?.();
    expect(held).toBeInstanceOf(Promise);
    await vi.advanceTimersByTimeAsync(1000);
    expect(orch.state.phase).toBe("draining");

    behind = false;
    release();
    await held;
    // What waited in the pipe is read now, and belongs to the turn.
    agent.update(chunk("late"));
    await flush();
    await vi.advanceTimersByTimeAsync(200);
    expect(orch.state.phase).toBe("idle");
    const said = JSON.stringify(orch.state.items);
    expect(said.indexOf("late")).toBeGreaterThan(said.indexOf("first"));
    expect(agent.hooks.holdReads?.()).toBeUndefined();
  });
});
