import { afterEach, describe, expect, it } from "vitest";
import { MARKDOWN_ANSWER } from "../../src/demo/scenarios/markdown.js";
import { floodChunk } from "../../src/demo/scenarios/flood.js";
import { DemoHarness } from "./support/demo-harness.js";

let harness: DemoHarness;
afterEach(async () => harness?.close());

describe("text scenarios", () => {
  it("markdown streams thoughts first, then many small chunks that add up to the whole answer", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const from = harness.received.length;
    const response = await harness.prompt(sessionId, "show me some Markdown please");
    const updates = harness.updates(from);
    const kinds = updates.map((update) => update.sessionUpdate);
    const firstMessage = kinds.indexOf("agent_message_chunk");
    const thoughts = kinds.filter((kind) => kind === "agent_thought_chunk").length;
    expect(thoughts).toBeGreaterThan(2);
    expect(kinds.lastIndexOf("agent_thought_chunk")).toBeLessThan(firstMessage);

    const chunks = updates.filter((update) => update.sessionUpdate === "agent_message_chunk");
    expect(chunks.length).toBeGreaterThan(50);
    expect(harness.messageText(from)).toBe(MARKDOWN_ANSWER);
    for (const needle of ["# Streaming Markdown", "**bold**", "_italic_", "](https://", "| --- |", "```ts"]) {
      expect(MARKDOWN_ANSWER).toContain(needle);
    }
    expect(response.stopReason).toBe("end_turn");
  });

  it("ends every turn with a usage_update, and the response carries the turn's usage", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const from = harness.received.length;
    const response = await harness.prompt(sessionId, "/markdown");
    const updates = harness.updates(from);
    const last = updates[updates.length - 1];
    expect(last).toMatchObject({ sessionUpdate: "usage_update", size: 200000, cost: { currency: "USD" } });
    expect(last.sessionUpdate === "usage_update" && last.used).toBeGreaterThan(0);
    expect(response.usage).toMatchObject({ inputTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(response.usage?.totalTokens).toBe((response.usage?.inputTokens ?? 0) + (response.usage?.outputTokens ?? 0));

    await harness.prompt(sessionId, "/markdown");
    const usages = harness.updates().filter((update) => update.sessionUpdate === "usage_update");
    const [first, second] = usages.map((update) => (update.sessionUpdate === "usage_update" ? update.used : 0));
    expect(second).toBeGreaterThan(first);
  });

  it("answers an unrecognised prompt with the list of keywords", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "what is the weather like?");
    const text = harness.messageText();
    for (const keyword of ["markdown", "edit", "run", "permission", "plan", "background", "slow", "crash"]) {
      expect(text).toContain(`\`${keyword}\``);
    }
  });

  it("refuse ends with refusal and maxtokens with max_tokens", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    expect((await harness.prompt(sessionId, "please refuse")).stopReason).toBe("refusal");
    expect((await harness.prompt(sessionId, "/maxtokens")).stopReason).toBe("max_tokens");
  });

  it("thoughts sends only thought chunks", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const from = harness.received.length;
    await harness.prompt(sessionId, "thoughts");
    const kinds = new Set(harness.updates(from).map((update) => update.sessionUpdate));
    expect(kinds.has("agent_thought_chunk")).toBe(true);
    expect(kinds.has("agent_message_chunk")).toBe(false);
  });

  it("unknown writes a session/update of an unknown kind as a well-formed line, then carries on", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const response = await harness.prompt(sessionId, "unknown");
    const raw = harness.received.find(
      (message) =>
        message.method === "session/update" &&
        (message.params as { update: { sessionUpdate: string } }).update.sessionUpdate === "future_thing",
    );
    expect(raw?.params).toMatchObject({ sessionId, update: { sessionUpdate: "future_thing" } });
    expect(harness.messageText()).toContain("future_thing");
    expect(response.stopReason).toBe("end_turn");
  });

  it("flood N sends exactly N message chunks", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const from = harness.received.length;
    await harness.prompt(sessionId, "flood 1234");
    const chunks = harness.updates(from).filter((update) => update.sessionUpdate === "agent_message_chunk");
    expect(chunks).toHaveLength(1234);
    expect(harness.messageText(from)).toBe(Array.from({ length: 1234 }, (_, index) => floodChunk(index)).join(""));
  });

  it("flood without a count uses the configured default", async () => {
    harness = await DemoHarness.start({ config: { floodChunks: 42 } });
    const sessionId = await harness.newSession();
    const from = harness.received.length;
    await harness.prompt(sessionId, "/flood");
    expect(harness.updates(from).filter((update) => update.sessionUpdate === "agent_message_chunk")).toHaveLength(42);
  });

  it("acknowledges image and file attachments", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    await harness.request("session/prompt", {
      sessionId,
      prompt: [
        { type: "text", text: "what is this?" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
        { type: "resource", resource: { uri: "file:///tmp/a.txt", text: "hi" } },
      ],
    });
    expect(harness.messageText()).toContain("an image (image/png");
    expect(harness.messageText()).toContain("file:///tmp/a.txt");
  });
});
