import { afterEach, describe, expect, it } from "vitest";
import { DemoHarness } from "./support/demo-harness.js";

let harness: DemoHarness;
afterEach(async () => harness?.close());

describe("cancel", () => {
  it("slow stops streaming on session/cancel and answers cancelled", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const response = harness.prompt(sessionId, "slow");
    await harness.waitForUpdate((update) => update.sessionUpdate === "agent_message_chunk");
    await harness.notify("session/cancel", { sessionId });
    const answer = await response;
    expect(answer.stopReason).toBe("cancelled");
    expect(answer.usage).toBeUndefined();

    const chunks = harness.updates().filter((update) => update.sessionUpdate === "agent_message_chunk");
    expect(chunks.length).toBeLessThan(10);
  });

  it("a cancel while a permission request is open ends the turn cancelled, even if the client never answers", async () => {
    harness = await DemoHarness.start({ permission: () => new Promise(() => undefined) });
    const sessionId = await harness.newSession();
    const response = harness.prompt(sessionId, "permission");
    await harness.waitFor((message) => message.method === "session/request_permission");
    await harness.notify("session/cancel", { sessionId });
    expect((await response).stopReason).toBe("cancelled");
  });

  it("a cancel while a client terminal runs kills it and ends the turn cancelled", async () => {
    harness = await DemoHarness.start({ terminals: { mode: "manual" } });
    const sessionId = await harness.newSession();
    const response = harness.prompt(sessionId, "run");
    await harness.waitFor((message) => message.method === "terminal/wait_for_exit");
    await harness.notify("session/cancel", { sessionId });
    expect((await response).stopReason).toBe("cancelled");
    expect(harness.terminals.get("term-1")?.killed).toBe(true);
    expect(harness.terminals.get("term-1")?.released).toBe(true);
  });

  it("the session takes new prompts after a cancelled one", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const response = harness.prompt(sessionId, "slow");
    await harness.waitForUpdate((update) => update.sessionUpdate === "agent_message_chunk");
    await harness.notify("session/cancel", { sessionId });
    await response;
    expect((await harness.prompt(sessionId, "refuse")).stopReason).toBe("refusal");
  });
});
