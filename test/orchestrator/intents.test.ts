import { describe, expect, it } from "vitest";
import { INTENT_NAMES } from "../../src/orchestrator/intents.js";
import { FakeSession } from "../ui/fake-session.js";
import { startWithFake } from "./fake-agent.js";

describe("the intents table", () => {
  it("is every intent of the orchestrator and of the UI's fake session, each carried out by its part", async () => {
    const { orch } = await startWithFake();
    const fake = new FakeSession();
    for (const name of INTENT_NAMES) {
      expect(typeof orch[name], name).toBe("function");
      expect(typeof fake[name], name).toBe("function");
    }
    // The facade carries an intent out through its part: a send prompts an idle session at once.
    orch.send("hello");
    expect(orch.state.turns).toHaveLength(1);
    await orch.shutdown();
  });

  it("gives the fake session the turn machine's own send-or-queue rule", () => {
    const fake = new FakeSession().open();
    fake.send("one");
    fake.send("two");
    expect(fake.state.turns.map((t) => t.id)).toEqual(["t1"]);
    expect(fake.state.queue.map((m) => m.text)).toEqual(["two"]);
    expect(fake.intents()).toEqual(["send", "send"]);
  });
});
