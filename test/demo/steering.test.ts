import { afterEach, describe, expect, it } from "vitest";
import { DemoHarness } from "./support/demo-harness.js";

let harness: DemoHarness;
afterEach(async () => harness?.close());

const steer = (sessionId: string, text: string, idleBehavior?: "promptRequired") =>
  harness.request<{ outcome: string; reason?: string }>("_session/steering", {
    sessionId,
    prompt: [{ type: "text", text }],
    ...(idleBehavior ? { _meta: { steering: { idleBehavior } } } : {}),
  });

describe("steering (_session/steering)", () => {
  it("advertises steering in initialize's top-level _meta, as claude-agent-acp does", async () => {
    harness = await DemoHarness.start();
    const init = harness.received.find((m) => m.id === 1 && m.result !== undefined)?.result as { _meta?: unknown };
    expect(init._meta).toEqual({ steering: { supported: true } });
  });

  it("takes a message into the running slow turn and acknowledges it in the stream before the turn ends", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const response = harness.prompt(sessionId, "slow");
    let answered = false;
    void response.then(() => (answered = true));
    await harness.waitForUpdate((u) => u.sessionUpdate === "agent_message_chunk");
    const steered = harness.received.length;
    expect(await steer(sessionId, "mention bananas", "promptRequired")).toEqual({ outcome: "injected" });
    await harness.waitFor(() => harness.messageText(steered).includes("take that into account.)"));
    expect(harness.messageText(steered)).toContain("(You steered me: “mention bananas”. Noted;");
    const ack = harness.received.length;
    // The slow text goes on after the acknowledgement, in the same turn: the steer did not end it.
    await harness.waitFor((m) => m.method === "session/update" && harness.received.indexOf(m) > ack);
    expect(answered).toBe(false);
    await harness.notify("session/cancel", { sessionId });
    expect((await response).stopReason).toBe("cancelled");
  });

  it("answers promptRequired with no turn running when asked to, and runs nothing", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const before = harness.received.length;
    expect(await steer(sessionId, "anyone there?", "promptRequired")).toEqual({ outcome: "promptRequired", reason: "noRunningTurn" });
    expect(harness.updates(before)).toEqual([]);
  });

  it("without the opt-in, an idle session runs the message as a turn of its own (startedNewTurn)", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    expect(await steer(sessionId, "/thoughts")).toEqual({ outcome: "startedNewTurn" });
    await harness.waitForUpdate((u) => u.sessionUpdate === "usage_update");
    expect(harness.updates().some((u) => u.sessionUpdate === "agent_thought_chunk")).toBe(true);
  });

  it("refuses a steer without a prompt, and for an unknown session", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    await expect(harness.request("_session/steering", { sessionId, prompt: [] })).rejects.toThrow(/non-empty prompt/);
    await expect(steer("nope", "hi", "promptRequired")).rejects.toThrow();
  });
});
