import { afterEach, describe, expect, it } from "vitest";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { BACKGROUND_FOLLOW_UP } from "../../src/demo/scenarios/background.js";
import { DemoHarness, FULL_CAPABILITIES, type WireMessage } from "./support/demo-harness.js";

let harness: DemoHarness;
afterEach(async () => harness?.close());

const updateOf = (message: WireMessage): SessionUpdate | undefined =>
  message.method === "session/update" ? (message.params as { update: SessionUpdate }).update : undefined;

/** Waits for the usage_update that closes the agent's own follow-up after index `answered`. */
function waitForFollowUpEnd(answered: number): Promise<number> {
  return harness.waitFor((message) => updateOf(message)?.sessionUpdate === "usage_update" && harness.received.indexOf(message) > answered);
}

/** Index of the response to the last prompt the harness sent. */
function lastPromptResponseIndex(): number {
  const prompt = [...harness.sent].reverse().find((message) => message.method === "session/prompt");
  return harness.responseIndex(Number(prompt?.id));
}

describe("background", () => {
  it("with _meta.terminal_output: answers end_turn while the job runs, then exits it and follows up unprompted", async () => {
    harness = await DemoHarness.start({ capabilities: FULL_CAPABILITIES, config: { backgroundMs: 30 } });
    const sessionId = await harness.newSession();
    const response = await harness.prompt(sessionId, "background");
    expect(response.stopReason).toBe("end_turn");
    const answered = lastPromptResponseIndex();

    const followUpDone = await waitForFollowUpEnd(answered);
    const call = harness.updates().find((update) => update.sessionUpdate === "tool_call");
    expect(call).toMatchObject({
      kind: "execute",
      status: "in_progress",
      title: expect.stringContaining("echo done"),
    });
    const toolCallId = call?.sessionUpdate === "tool_call" ? call.toolCallId : "";
    expect(call).toMatchObject({
      content: [{ type: "terminal", terminalId: toolCallId }],
      _meta: { terminal_info: { terminal_id: toolCallId, cwd: expect.any(String) } },
    });
    expect(harness.received.some((message) => message.method === "terminal/create")).toBe(false);

    const indexWhere = (predicate: (update: SessionUpdate) => boolean) =>
      harness.received.findIndex((message) => {
        const update = updateOf(message);
        return update !== undefined && predicate(update);
      });
    const working = indexWhere((update) => JSON.stringify(update).includes('"data":"working...\\r\\n"'));
    const done = indexWhere((update) => JSON.stringify(update).includes('"data":"done\\r\\n"'));
    const exit = indexWhere((update) => update.sessionUpdate === "tool_call_update" && update._meta?.terminal_exit !== undefined);
    const followUp = harness.received.findIndex(
      (message, index) => index > answered && updateOf(message)?.sessionUpdate === "agent_message_chunk",
    );
    expect(working).toBeLessThan(answered);
    expect(answered).toBeLessThan(done);
    expect(done).toBeLessThan(exit);
    expect(exit).toBeLessThan(followUp);
    expect(followUp).toBeLessThan(followUpDone);
    expect(updateOf(harness.received[exit])).toMatchObject({
      status: "completed",
      _meta: { terminal_exit: { terminal_id: toolCallId, exit_code: 0, signal: null } },
    });
    expect(harness.messageText(answered)).toBe(BACKGROUND_FOLLOW_UP);
  });

  it("with only terminal: runs the job in a client terminal and reports its exit after the turn", async () => {
    harness = await DemoHarness.start({ capabilities: { terminal: true }, terminals: { mode: "manual" } });
    const sessionId = await harness.newSession();
    expect((await harness.prompt(sessionId, "background")).stopReason).toBe("end_turn");
    const answered = lastPromptResponseIndex();
    const terminal = harness.terminals.get("term-1");
    expect(terminal?.args[1]).toContain("echo done");
    expect(harness.updates().find((update) => update.sessionUpdate === "tool_call")).toMatchObject({
      status: "in_progress",
      content: [{ type: "terminal", terminalId: "term-1" }],
    });

    terminal!.output = "working...\ndone\n";
    terminal!.finish({ exitCode: 0, signal: null });
    const completed = await harness.waitForUpdate((update) => update.sessionUpdate === "tool_call_update" && update.status === "completed");
    expect(completed).toBeGreaterThan(answered);
    await waitForFollowUpEnd(answered);
    expect(harness.messageText(answered)).toBe("The background job finished: done.");
    await harness.waitFor((message) => message.method === "terminal/release");
  });

  it("with no terminal at all: leaves the tool call in progress and completes it later", async () => {
    harness = await DemoHarness.start({ capabilities: {}, config: { backgroundMs: 10 } });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "background");
    const answered = lastPromptResponseIndex();
    const completed = await harness.waitForUpdate((update) => update.sessionUpdate === "tool_call_update" && update.status === "completed");
    expect(completed).toBeGreaterThan(answered);
    await waitForFollowUpEnd(answered);
    expect(harness.messageText(answered)).toBe(BACKGROUND_FOLLOW_UP);
  });

  it("session/cancel after the turn stops the job: the tool call fails with a terminal_exit and no follow-up comes", async () => {
    harness = await DemoHarness.start({ config: { backgroundMs: 60_000 } });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "background");
    const answered = lastPromptResponseIndex();
    await harness.notify("session/cancel", { sessionId });
    const failed = await harness.waitForUpdate((update) => update.sessionUpdate === "tool_call_update" && update.status === "failed");
    expect(failed).toBeGreaterThan(answered);
    expect(updateOf(harness.received[failed])).toMatchObject({ _meta: { terminal_exit: { exit_code: null } } });
    expect(harness.messageText(answered)).toBe("");
  });
});
