import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planCausal, type CausalLine } from "../../src/demo/trace-replay/causal-plan.js";
import { isJsonObject, type JsonObject } from "../../src/demo/trace-replay/jsonrpc.js";
import { loadTrace, parseTrace, processCount, selectProcess, type Trace } from "../../src/demo/trace-replay/load-trace.js";
import { toSteps } from "../../src/demo/trace-replay/steps.js";
import { playConchLike, sentAfter, type ConchLikeRun } from "./conch-like-client.js";
import {
  clientIdFor,
  clientMessage,
  playRecordedClient,
  settlesSoon,
  startReplay,
  TEST_VALUES,
  TRACES_DIR,
  traceFiles,
  type Harness,
} from "./recorded-client.js";

const S4_TERMINAL = "claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl";
const S4_OLD = "claude-agent-acp-0.23.1/s4-background-bash.jsonl";

const load = (file: string): Promise<Trace> => loadTrace(join(TRACES_DIR, file));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function updateOf(msg: JsonObject): JsonObject | undefined {
  const params = msg.params;
  return isJsonObject(params) && isJsonObject(params.update) ? params.update : undefined;
}

function isTerminalExit(msg: JsonObject, toolCallId: string): boolean {
  const update = updateOf(msg);
  return update?.toolCallId === toolCallId && isJsonObject(update._meta) && "terminal_exit" in update._meta;
}

function isToolCall(msg: JsonObject, toolCallId: string): boolean {
  const update = updateOf(msg);
  return update?.sessionUpdate === "tool_call" && update.toolCallId === toolCallId;
}

function chunkText(msg: JsonObject): string | undefined {
  const update = updateOf(msg);
  if (update?.sessionUpdate !== "agent_message_chunk" || !isJsonObject(update.content)) return undefined;
  return typeof update.content.text === "string" ? update.content.text : undefined;
}

/** Indexes of the received messages that satisfy `predicate`. */
function indexes(messages: readonly JsonObject[], predicate: (msg: JsonObject) => boolean): number[] {
  return messages.flatMap((msg, index) => (predicate(msg) ? [index] : []));
}

/** The single index that satisfies `predicate`. */
function onlyIndex(messages: readonly JsonObject[], predicate: (msg: JsonObject) => boolean): number {
  const found = indexes(messages, predicate);
  expect(found).toHaveLength(1);
  return found[0];
}

/** Every recorded agent line arrived exactly once (in whatever order), and nothing else. */
function expectEachOnce(h: Harness, run: { expected: JsonObject[] }): void {
  const sorted = (lines: string[]): string[] => [...lines].sort();
  expect(sorted(h.collector.lines)).toEqual(sorted(run.expected.map((msg) => JSON.stringify(msg))));
  const surprises = h.logs.filter((l) =>
    ["unknown-request", "unmapped-response-id", "unmatched-response", "ignored-notification"].includes(l.event),
  );
  expect(surprises).toEqual([]);
}

/** Indexes of the message chunks whose text is one of `texts`. */
function chunkIndexes(h: Harness, texts: string[]): number[] {
  return indexes(h.collector.messages, (msg) => texts.includes(chunkText(msg) ?? "\u0000"));
}

describe("causal replay with a conch-like client (prompts only after the turn went quiet)", () => {
  it("0.100.0 s4.terminal_output: bg1's late terminal_exit and follow-up turn come before p2", async () => {
    const trace = await load(S4_TERMINAL);
    const h = startReplay(trace, { speed: 10, causal: true });
    const run: ConchLikeRun = await playConchLike(h.agent.segment, h, TEST_VALUES, { quietMs: 450 });
    await expect(h.agent.finished).resolves.toBe("complete");
    expectEachOnce(h, run);
    const msgs = h.collector.messages;

    const p2 = sentAfter(run, "p2");
    const bg1Exit = onlyIndex(msgs, (m) => isTerminalExit(m, "toolu_s4_bg1"));
    const read1 = onlyIndex(msgs, (m) => isToolCall(m, "toolu_s4_task_notification_read_1_1"));
    const p1Response = onlyIndex(msgs, (m) => m.id === clientIdFor(2));
    expect(p1Response).toBeLessThan(bg1Exit);
    expect(bg1Exit).toBeLessThan(read1);
    expect(read1).toBeLessThan(p2);
    // The whole follow-up turn ("… The background job printed: done") is in before p2.
    const done = onlyIndex(msgs, (m) => chunkText(m) === "ed: done");
    expect(done).toBeLessThan(p2);

    // p2's answer streams after p2 was sent, and its response follows it.
    const p2Chunks = chunkIndexes(h, ["e second pro"]);
    expect(p2Chunks).toHaveLength(1);
    expect(p2Chunks[0]).toBeGreaterThanOrEqual(p2);
    expect(onlyIndex(msgs, (m) => m.id === clientIdFor(3))).toBeGreaterThan(p2Chunks[0]);

    // Same for the second background task: its follow-up comes after p3 answered, before p4.
    const p3Response = onlyIndex(msgs, (m) => m.id === clientIdFor(4));
    const bg2Exit = onlyIndex(msgs, (m) => isTerminalExit(m, "toolu_s4_bg2"));
    const read2 = onlyIndex(msgs, (m) => isToolCall(m, "toolu_s4_task_notification_read_2_1"));
    expect(p3Response).toBeLessThan(bg2Exit);
    expect(read2).toBeLessThan(sentAfter(run, "p4"));
    expect(onlyIndex(msgs, (m) => chunkText(m) === "e fourth pro")).toBeGreaterThanOrEqual(sentAfter(run, "p4"));
    h.agent.stop();
  });

  it("0.100.0 s4.terminal_output: same with a client that also waits for every terminal_exit", async () => {
    const trace = await load(S4_TERMINAL);
    const h = startReplay(trace, { speed: 20, causal: true });
    const run = await playConchLike(h.agent.segment, h, TEST_VALUES, { quietMs: 150, waitForTerminals: true });
    await expect(h.agent.finished).resolves.toBe("complete");
    expectEachOnce(h, run);
    const msgs = h.collector.messages;
    expect(onlyIndex(msgs, (m) => isToolCall(m, "toolu_s4_task_notification_read_1_1"))).toBeLessThan(sentAfter(run, "p2"));
    expect(onlyIndex(msgs, (m) => isToolCall(m, "toolu_s4_task_notification_read_2_1"))).toBeLessThan(sentAfter(run, "p4"));
    h.agent.stop();
  });

  it("strict mode holds bg1's terminal_exit until p2 arrives (the deadlock causal mode removes)", async () => {
    const trace = await load(S4_TERMINAL);
    const h = startReplay(trace, { speed: 10 });
    const clientLines = h.agent.segment.entries.flatMap((e) => (e.dir === "client" ? [e.msg] : []));
    // initialize, session/new, p1: everything conch sends before p1's turn has settled.
    for (const msg of clientLines.slice(0, 3)) h.send(clientMessage(msg, TEST_VALUES));
    await waitUntil(h, (msgs) => msgs.some((m) => m.id === clientIdFor(2)));
    // Recorded gap to the terminal_exit: 2.9 s, 0.29 s at speed 10. Give it twice that.
    await sleep(600);
    expect(h.collector.messages.some((m) => isTerminalExit(m, "toolu_s4_bg1"))).toBe(false);
    h.agent.stop();
  });

  it("0.23.1 s4: p1 held by its in-turn follow-up; p4 sent only after p3 answered still completes", async () => {
    const trace = await load(S4_OLD);
    const h = startReplay(trace, { speed: 10, causal: true });
    const run = await playConchLike(h.agent.segment, h, TEST_VALUES, { quietMs: 300 });
    await expect(h.agent.finished).resolves.toBe("complete");
    expectEachOnce(h, run);
    const msgs = h.collector.messages;

    // p1's follow-up ("… printed: done" and the Read) streams inside p1, before its response.
    const read1 = onlyIndex(msgs, (m) => isToolCall(m, "toolu_s4_task_notification_read_1_1"));
    const p1Response = onlyIndex(msgs, (m) => m.id === clientIdFor(2));
    expect(read1).toBeLessThan(p1Response);
    expect(p1Response).toBeLessThan(sentAfter(run, "p2"));

    // p3's response does not wait for p4 (recorded after p4's whole answer).
    const p3Response = onlyIndex(msgs, (m) => m.id === clientIdFor(4));
    const p4 = sentAfter(run, "p4");
    expect(p3Response).toBeLessThan(p4);
    // p4's answer and the second task's follow-up (recorded while p4 was pending) come after p4.
    expect(onlyIndex(msgs, (m) => chunkText(m) === "e fourth pro")).toBeGreaterThanOrEqual(p4);
    expect(onlyIndex(msgs, (m) => isToolCall(m, "toolu_s4_task_notification_read_2_1"))).toBeGreaterThanOrEqual(p4);
    expect(onlyIndex(msgs, (m) => m.id === clientIdFor(5))).toBeLessThan(sentAfter(run, "p5"));
    h.agent.stop();
  });

  it("0.23.1 s4: a client that sends p4 while p3 is pending, as recorded, also gets every line once", async () => {
    const trace = await load(S4_OLD);
    const h = startReplay(trace, { causal: true });
    const expected = await playRecordedClient(h.agent.segment, h, TEST_VALUES, true);
    await expect(h.agent.finished).resolves.toBe("complete");
    expectEachOnce(h, { expected });
    h.agent.stop();
  });
});

describe("causal replay with a client that behaves like the recorded one: same as strict", () => {
  const files = ["codex-acp-0.16.0/c4-meta.jsonl", "gemini-cli-0.61.0/g2.jsonl", "claude-agent-acp-0.23.1/s5-cancel-permission.jsonl"];
  it.each(files)("%s at speed 10", async (file) => {
    const trace = await load(file);
    const play = async (causal: boolean) => {
      const h = startReplay(trace, { speed: 10, causal });
      const expected = await playRecordedClient(h.agent.segment, h, TEST_VALUES, true);
      await expect(h.agent.finished).resolves.toBe("complete");
      h.agent.stop();
      return { h, expected };
    };
    const [strict, causal] = await Promise.all([play(false), play(true)]);
    const expectedLines = strict.expected.map((msg) => JSON.stringify(msg));
    expect(strict.h.collector.lines).toEqual(expectedLines);
    expect(causal.h.collector.lines).toEqual(strict.h.collector.lines);
    expect(causal.h.agent.clientAnswers).toEqual(strict.h.agent.clientAnswers);
    expect(causal.h.logs.filter((l) => l.event !== "client-answer")).toEqual(strict.h.logs.filter((l) => l.event !== "client-answer"));
  });
});

describe("causal replay of every recorded trace with the recorded client", () => {
  /**
   * Traces whose order legitimately differs from the recording at speed inf: a late
   * agent-initiated block no longer waits for the later prompts (0.100.0), and p3's response
   * no longer waits for p4's answer, recorded before it (both s4 versions).
   */
  const REORDERED = new Set([
    "claude-agent-acp-0.100.0/s4-background-bash.jsonl",
    "claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl",
    "claude-agent-acp-0.23.1/s4-background-bash.jsonl",
    "claude-agent-acp-0.23.1/s4-background-bash.terminal_output.jsonl",
  ]);
  const cases = traceFiles().flatMap((file) => [{ file }]);

  it.each(cases)("$file: every agent line once, ids re-keyed, complete", async ({ file }) => {
    const trace = await load(file);
    for (let process = 1; process <= processCount(trace); process++) {
      for (const paced of [true, false]) {
        const h = startReplay(trace, { process, causal: true });
        const expected = await playRecordedClient(h.agent.segment, h, TEST_VALUES, paced);
        await expect(h.agent.finished).resolves.toBe("complete");
        expectEachOnce(h, { expected });
        if (paced && !REORDERED.has(file)) expect(h.collector.lines).toEqual(expected.map((m) => JSON.stringify(m)));
        h.agent.stop();
      }
    }
  });
});

describe("planCausal", () => {
  const linesOf = async (file: string): Promise<{ steps: ReturnType<typeof toSteps>; lines: CausalLine[] }> => {
    const steps = toSteps(selectProcess(await load(file), 1));
    return { steps, lines: planCausal(steps).lines };
  };

  it("anchors 0.100.0 s4's late blocks to the prompt that announced their tool call", async () => {
    const { steps, lines } = await linesOf(S4_TERMINAL);
    const promptSteps = steps.flatMap((s, i) =>
      s.from === "client" && s.message.kind === "request" && s.message.method === "session/prompt" ? [i] : [],
    );
    const blocks = lines.filter((l) => l.reason === "block");
    // bg1's terminal_exit opens block 0 (anchored to p1), bg2's opens block 1 (anchored to p3).
    expect(new Set(blocks.map((l) => `${l.block?.index}:${l.block?.anchor}`))).toEqual(
      new Set([`0:${promptSteps[0]}`, `1:${promptSteps[2]}`]),
    );
    const first = blocks.find((l) => l.block?.index === 0);
    const p1Response = lines.find((l) => l.reason === "response" && l.turn === promptSteps[0]);
    expect(first?.timing).toEqual({ kind: "agent", step: p1Response?.step });
    expect(first?.t).toBe(4129);
    // p4's first usage_update belongs to p4 (the latest pending prompt); p3's response only to p3.
    const p3Response = lines.find((l) => l.reason === "response" && l.turn === promptSteps[2]);
    expect(p3Response?.deps.filter((d) => d.kind === "client")).toEqual([{ kind: "client", step: promptSteps[2] }]);
    const afterP4 = lines.find((l) => l.step === promptSteps[3] + 1);
    expect(afterP4).toMatchObject({ reason: "turn", turn: promptSteps[3] });
  });

  it("makes lines after a cancel or an answer wait for it, and the cancelled response too", async () => {
    const { steps, lines } = await linesOf("claude-agent-acp-0.23.1/s5-cancel-permission.jsonl");
    const cancel = steps.findIndex((s) => s.from === "client" && s.message.kind === "notification");
    const answer = steps.findIndex((s) => s.from === "client" && s.message.kind === "response");
    const cancelled = lines.find((l) => {
      const s = steps[l.step];
      return s.from === "agent" && isJsonObject(s.msg.result) && s.msg.result.stopReason === "cancelled";
    });
    expect(cancelled?.deps).toEqual(
      expect.arrayContaining([
        { kind: "client", step: cancel },
        { kind: "client", step: answer },
      ]),
    );
    // The permission request itself came before the cancel: it does not wait for it.
    const permission = lines.find((l) => {
      const s = steps[l.step];
      return s.from === "agent" && s.msg.method === "session/request_permission";
    });
    expect(permission).toBeDefined();
    expect(permission?.deps.some((d) => d.step === cancel || d.step === answer)).toBe(false);
  });

  it("gives turn-less updates the previous agent line, and falls back to the last answered prompt", () => {
    const trace = synthetic(
      { t: 1, dir: "client", msg: req(1, "session/new") },
      { t: 2, dir: "agent", msg: res(1, {}) },
      { t: 3, dir: "agent", msg: update("commands") },
      { t: 4, dir: "client", msg: req(2, "session/prompt") },
      { t: 5, dir: "agent", msg: res(2, { stopReason: "end_turn" }) },
      { t: 9, dir: "agent", msg: update("late, no tool call") },
    );
    const { lines } = planCausal(toSteps(selectProcess(trace, 1)));
    expect(lines.map((l) => [l.step, l.reason, l.timing])).toEqual([
      [1, "response", { kind: "client", step: 0 }],
      [2, "no-turn", { kind: "agent", step: 1 }],
      [4, "response", { kind: "client", step: 3 }],
      [5, "block", { kind: "agent", step: 4 }],
    ]);
  });
});

describe("causal replay: matching and dependencies (synthetic traces)", () => {
  /** p1 starts tool X; p1 answered; p2 answered; then X's late update and a follow-up (block → p1). */
  const lateBlock = synthetic(
    { t: 0, dir: "note", text: "agent process 1 started" },
    { t: 10, dir: "client", msg: req(2, "session/prompt", { n: 1 }) },
    { t: 20, dir: "agent", msg: toolUpdate("X", "tool_call") },
    { t: 30, dir: "agent", msg: res(2, { stopReason: "end_turn" }) },
    { t: 31, dir: "client", msg: req(3, "session/prompt", { n: 2 }) },
    { t: 40, dir: "agent", msg: update("answer 2") },
    { t: 50, dir: "agent", msg: res(3, { stopReason: "end_turn" }) },
    { t: 500, dir: "agent", msg: toolUpdate("X", "tool_call_update") },
    { t: 510, dir: "agent", msg: update("follow-up") },
  );

  it("sends the late block before p2 when the client holds p2 back, and maps p2 by occurrence", async () => {
    const h = startReplay(lateBlock, { speed: 10, causal: true });
    h.send(req("a", "session/prompt", { n: "whatever" }));
    // What matters is the order (a wall-clock gap measured here would depend on the machine's load).
    await h.collector.waitFor(4);
    expect(h.collector.messages.slice(2)).toEqual([toolUpdate("X", "tool_call_update"), update("follow-up")]);
    h.send(req("b", "session/prompt", { n: "also whatever" }));
    await h.collector.waitFor(6);
    expect(h.collector.messages.slice(4)).toEqual([update("answer 2"), res("b", { stopReason: "end_turn" })]);
    await expect(h.agent.finished).resolves.toBe("complete");
    h.send(req("c", "session/prompt", {}));
    expect(await h.collector.nth(6)).toMatchObject({ id: "c", error: { code: -32601 } });
    h.agent.stop();
  });

  it("never sends a line before its dependency: the response after a permission answer waits for it", async () => {
    const trace = synthetic(
      { t: 0, dir: "client", msg: req(2, "session/prompt") },
      { t: 1, dir: "agent", msg: req(0, "session/request_permission", { options: [] }) },
      { t: 2, dir: "client", msg: res(0, { outcome: { outcome: "selected", optionId: "allow" } }) },
      { t: 3, dir: "agent", msg: update("ran") },
      { t: 4, dir: "agent", msg: res(2, { stopReason: "end_turn" }) },
    );
    const h = startReplay(trace, { causal: true });
    h.send(req(7, "session/prompt"));
    await h.collector.waitFor(1);
    expect(await settlesSoon(h.collector.waitFor(2))).toBe(false);
    const answer = res(0, { outcome: { outcome: "selected", optionId: "reject" } });
    h.send(answer);
    await h.collector.waitFor(3);
    expect(h.collector.messages.slice(1)).toEqual([update("ran"), res(7, { stopReason: "end_turn" })]);
    expect(h.agent.clientAnswers).toMatchObject([{ id: 0, method: "session/request_permission", actual: answer }]);
    h.agent.stop();
  });

  it("holds the lines after a recorded cancel until the client cancels", async () => {
    const trace = synthetic(
      { t: 0, dir: "client", msg: req(2, "session/prompt") },
      { t: 1, dir: "agent", msg: update("working") },
      { t: 2, dir: "client", msg: notif("session/cancel") },
      { t: 3, dir: "agent", msg: res(2, { stopReason: "cancelled" }) },
    );
    const h = startReplay(trace, { causal: true });
    h.send(req(5, "session/prompt"));
    await h.collector.waitFor(1);
    expect(await settlesSoon(h.collector.waitFor(2))).toBe(false);
    h.send(notif("session/cancel"));
    expect(await h.collector.nth(1)).toEqual(res(5, { stopReason: "cancelled" }));
    h.send(notif("session/cancel"));
    await expect(h.agent.finished).resolves.toBe("complete");
    await sleep(5);
    expect(h.logs).toContainEqual({ event: "ignored-notification", method: "session/cancel" });
    h.agent.stop();
  });

  it("a response waits only for its own request, not for a later overlapping prompt", async () => {
    const trace = synthetic(
      { t: 0, dir: "client", msg: req(3, "session/prompt") },
      { t: 1, dir: "agent", msg: update("p3 streaming") },
      { t: 2, dir: "client", msg: req(4, "session/prompt") },
      { t: 3, dir: "agent", msg: update("p4 answer") },
      { t: 4, dir: "agent", msg: res(3, { stopReason: "end_turn" }) },
      { t: 5, dir: "agent", msg: res(4, { stopReason: "end_turn" }) },
    );
    const h = startReplay(trace, { causal: true });
    h.send(req("x", "session/prompt"));
    await h.collector.waitFor(2);
    expect(h.collector.messages).toEqual([update("p3 streaming"), res("x", { stopReason: "end_turn" })]);
    h.send(req("y", "session/prompt"));
    await h.collector.waitFor(4);
    expect(h.collector.messages.slice(2)).toEqual([update("p4 answer"), res("y", { stopReason: "end_turn" })]);
    h.agent.stop();
  });

  it("exits on EOF like strict mode", async () => {
    const h = startReplay(lateBlock, { causal: true });
    h.input.end();
    await expect(h.agent.exited).resolves.toEqual({ code: 0, reason: "stdin-closed" });
    await expect(h.agent.finished).resolves.toBe("stopped");
  });
});

// --- helpers ---------------------------------------------------------------------------------

type Line = { t: number; dir: "client" | "agent"; msg: object } | { t: number; dir: "note"; text: string };

function synthetic(...entries: Line[]): Trace {
  return parseTrace(entries.map((e) => JSON.stringify(e)).join("\n"), "synthetic");
}

function req(id: number | string, method: string, params: object = {}): JsonObject {
  return { jsonrpc: "2.0", id, method, params };
}
function notif(method: string, params: object = {}): JsonObject {
  return { jsonrpc: "2.0", method, params };
}
function res(id: number | string, result: object): JsonObject {
  return { jsonrpc: "2.0", id, result };
}
function update(text: string): JsonObject {
  return notif("session/update", {
    sessionId: "s",
    update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
  });
}
function toolUpdate(toolCallId: string, sessionUpdate: string): JsonObject {
  return notif("session/update", { sessionId: "s", update: { sessionUpdate, toolCallId } });
}

async function waitUntil(h: Harness, predicate: (messages: readonly JsonObject[]) => boolean): Promise<void> {
  while (!predicate(h.collector.messages)) await h.collector.waitFor(h.collector.messages.length + 1);
}
