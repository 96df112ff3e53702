import { afterEach, describe, expect, it } from "vitest";
import { DemoHarness } from "./support/demo-harness.js";

let harness: DemoHarness;
afterEach(async () => harness?.close());

describe("session/close", () => {
  it("ends the turn in progress, answers, and the session is gone from this process", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const response = harness.prompt(sessionId, "slow");
    await harness.waitForUpdate((update) => update.sessionUpdate === "agent_message_chunk");
    await expect(harness.request("session/close", { sessionId })).resolves.toEqual({});
    expect((await response).stopReason).toBe("cancelled");
    await expect(harness.prompt(sessionId, "help")).rejects.toMatchObject({ code: -32002 });
  });

  it("keeps the closed session saved: a later session/load brings it back", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "help");
    await harness.request("session/close", { sessionId });
    await harness.request("session/load", { sessionId, cwd: "/tmp", mcpServers: [] });
    expect((await harness.prompt(sessionId, "refuse")).stopReason).toBe("refusal");
  });

  it("refuses to close a session it does not know", async () => {
    harness = await DemoHarness.start();
    await expect(harness.request("session/close", { sessionId: "demo-nope" })).rejects.toMatchObject({ code: -32002 });
  });
});
