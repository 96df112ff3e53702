import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import { editedText } from "../../src/demo/scenarios/edit.js";
import { DemoHarness, FULL_CAPABILITIES } from "./support/demo-harness.js";

let harness: DemoHarness;
afterEach(async () => harness?.close());

const requestsOf = (method: string) => harness.received.filter((message) => message.method === method);
const indexOfMethod = (method: string) => harness.received.findIndex((message) => message.method === method);
const toolUpdates = (from = 0) =>
  harness.updates(from).filter((update) => update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update");
const lastStatus = (updates: SessionUpdate[]) =>
  updates
    .map((update) => ("status" in update ? update.status : undefined))
    .filter(Boolean)
    .pop();

describe("edit", () => {
  it("reads through fs, shows a diff, asks, and writes the new text through fs", async () => {
    harness = await DemoHarness.start();
    const cwd = mkdtempSync(join(tmpdir(), "conch-demo-edit-"));
    const path = join(cwd, "demo-notes.md");
    harness.files.set(path, "# Notes\n");
    const sessionId = await harness.newSession(cwd);
    const response = await harness.prompt(sessionId, "/edit");

    expect(requestsOf("fs/read_text_file")[0].params).toMatchObject({ sessionId, path });
    const call = harness.updates().find((update) => update.sessionUpdate === "tool_call");
    expect(call).toMatchObject({
      kind: "edit",
      status: "pending",
      locations: [{ path }],
      content: [{ type: "diff", path, oldText: "# Notes\n", newText: editedText("# Notes\n") }],
    });
    const permission = requestsOf("session/request_permission")[0].params as unknown as RequestPermissionRequest;
    expect(permission.options.map((option) => option.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    expect(indexOfMethod("session/request_permission")).toBeLessThan(indexOfMethod("fs/write_text_file"));
    expect(harness.files.get(path)).toBe(editedText("# Notes\n"));
    expect(lastStatus(toolUpdates())).toBe("completed");
    expect(response.stopReason).toBe("end_turn");
  });

  it("treats a missing file as new (oldText null) and creates it", async () => {
    harness = await DemoHarness.start();
    const cwd = mkdtempSync(join(tmpdir(), "conch-demo-edit-"));
    const sessionId = await harness.newSession(cwd);
    await harness.prompt(sessionId, "/edit notes/todo.md");
    const call = harness.updates().find((update) => update.sessionUpdate === "tool_call");
    expect(call?.sessionUpdate === "tool_call" && call.content?.[0]).toMatchObject({ type: "diff", oldText: null });
    expect(harness.files.get(join(cwd, "notes/todo.md"))).toBe(editedText(null));
  });

  it("a rejected edit fails its tool call with 'rejected by user' and writes nothing", async () => {
    harness = await DemoHarness.start({ permission: "reject_once" });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "edit");
    expect(requestsOf("fs/write_text_file")).toHaveLength(0);
    const final = toolUpdates().pop();
    expect(final).toMatchObject({ sessionUpdate: "tool_call_update", status: "failed" });
    expect(JSON.stringify(final)).toContain("rejected by user");
  });

  it("in code mode, 'Always allow' is remembered: the second edit does not ask", async () => {
    harness = await DemoHarness.start({ permission: "allow_always" });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "edit");
    await harness.prompt(sessionId, "edit");
    expect(requestsOf("session/request_permission")).toHaveLength(1);
    expect(requestsOf("fs/write_text_file")).toHaveLength(2);
  });

  it("in ask mode, every edit asks", async () => {
    harness = await DemoHarness.start({ permission: "allow_always" });
    const sessionId = await harness.newSession();
    await harness.request("session/set_mode", { sessionId, modeId: "ask" });
    await harness.prompt(sessionId, "edit");
    await harness.prompt(sessionId, "edit");
    expect(requestsOf("session/request_permission")).toHaveLength(2);
  });

  it("in plan mode, nothing is written", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    await harness.request("session/set_mode", { sessionId, modeId: "plan" });
    await harness.prompt(sessionId, "edit");
    expect(requestsOf("fs/write_text_file")).toHaveLength(0);
    expect(harness.messageText()).toContain("Plan mode");
  });

  it("without fs.writeTextFile it shows the diff and says it could not write", async () => {
    harness = await DemoHarness.start({ capabilities: { fs: { readTextFile: true } } });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "edit");
    expect(requestsOf("fs/write_text_file")).toHaveLength(0);
    expect(requestsOf("session/request_permission")).toHaveLength(0);
    expect(lastStatus(toolUpdates())).toBe("failed");
    expect(harness.messageText()).toContain("fs.writeTextFile");
  });
});

describe("run", () => {
  it("runs the command in a client terminal shown by a terminal content, then completes and releases it", async () => {
    harness = await DemoHarness.start({ terminals: { mode: "exit", output: "build ok\n" } });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "run");

    const create = requestsOf("terminal/create")[0].params ?? {};
    expect(create).toMatchObject({ sessionId, command: "sh", args: ["-c", expect.stringContaining("\\r[")] });
    const call = harness.updates().find((update) => update.sessionUpdate === "tool_call");
    expect(call).toMatchObject({
      kind: "execute",
      content: [{ type: "terminal", terminalId: "term-1" }],
      rawInput: { command: expect.any(String) },
    });
    const order = ["terminal/create", "terminal/wait_for_exit", "terminal/output", "terminal/release"].map(indexOfMethod);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const completed = harness.received.findIndex(
      (message) => message.method === "session/update" && JSON.stringify(message.params).includes('"status":"completed"'),
    );
    expect(completed).toBeGreaterThan(order[2]);
    expect(completed).toBeLessThan(order[3]);
    expect(JSON.stringify(toolUpdates().pop())).toContain("exit code 0");
    expect(harness.terminals.get("term-1")?.released).toBe(true);
  });

  it("the build script really runs in sh, with colours and a \\r progress bar", async () => {
    harness = await DemoHarness.start({ terminals: { mode: "real" } });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "run");
    const output = harness.terminals.get("term-1")?.output ?? "";
    expect(output).toContain("\u001b[");
    expect(output).toContain("\r[##########] 100%");
    expect(harness.terminals.get("term-1")?.exit).toEqual({ exitCode: 0, signal: null });
  });

  it("without the terminal capability it runs nothing and says so", async () => {
    harness = await DemoHarness.start({ capabilities: { fs: FULL_CAPABILITIES.fs } });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "run");
    expect(requestsOf("terminal/create")).toHaveLength(0);
    expect(harness.messageText()).toContain("`terminal` capability");
  });
});

describe("interactive", () => {
  it("starts a command that reads input and waits for it to exit, however long it takes", async () => {
    harness = await DemoHarness.start({ terminals: { mode: "manual" } });
    const sessionId = await harness.newSession();
    const response = harness.prompt(sessionId, "interactive");
    await harness.waitFor((message) => message.method === "terminal/wait_for_exit");
    const terminal = harness.terminals.get("term-1");
    expect(terminal?.args[1]).toContain("read name");
    terminal!.output = "Your name? Ada\nHello, Ada\n";
    terminal!.finish({ exitCode: 0, signal: null });
    expect((await response).stopReason).toBe("end_turn");
    expect(harness.messageText()).toContain("Hello, Ada");
  });
});

describe("permission", () => {
  it("asks with all four option kinds and reports the option chosen", async () => {
    harness = await DemoHarness.start({ permission: "reject_always" });
    const sessionId = await harness.newSession();
    const response = await harness.prompt(sessionId, "permission");
    const request = requestsOf("session/request_permission")[0].params as unknown as RequestPermissionRequest;
    expect(request.toolCall).toMatchObject({ title: "rm -rf build/", kind: "execute", status: "pending" });
    expect(request.options.map((option) => option.kind)).toEqual(["allow_once", "allow_always", "reject_once", "reject_always"]);
    expect(harness.updates().find((update) => update.sessionUpdate === "tool_call")).toMatchObject({
      title: "rm -rf build/",
      status: "pending",
    });
    expect(harness.messageText()).toContain("Always reject");
    expect(harness.messageText()).toContain("reject_always");
    expect(lastStatus(toolUpdates())).toBe("failed");
    expect(response.stopReason).toBe("end_turn");
  });

  it("an allowed command completes", async () => {
    harness = await DemoHarness.start({ permission: "allow_once" });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "/permission");
    expect(lastStatus(toolUpdates())).toBe("completed");
    expect(harness.messageText()).toContain("allow_once");
  });

  it("a cancelled outcome ends the turn cancelled", async () => {
    harness = await DemoHarness.start({ permission: "cancelled" });
    const sessionId = await harness.newSession();
    const response = await harness.prompt(sessionId, "permission");
    expect(response.stopReason).toBe("cancelled");
  });

  it("permissions2 keeps two requests pending at once and settles each on its own answer", async () => {
    const held: Array<{ request: RequestPermissionRequest; answer: (response: RequestPermissionResponse) => void }> = [];
    harness = await DemoHarness.start({
      permission: (request) => new Promise((answer) => held.push({ request, answer })),
    });
    const sessionId = await harness.newSession();
    const response = harness.prompt(sessionId, "permissions2");
    await harness.waitFor(() => held.length === 2);
    const [first, second] = held;
    expect(first.request.toolCall.toolCallId).not.toBe(second.request.toolCall.toolCallId);

    const optionOf = (entry: (typeof held)[number], kind: string) => entry.request.options.find((option) => option.kind === kind)!.optionId;
    // Answer the second first: its tool call settles while the first is still pending.
    second.answer({ outcome: { outcome: "selected", optionId: optionOf(second, "allow_once") } });
    await harness.waitForUpdate(
      (update) => update.sessionUpdate === "tool_call_update" && update.toolCallId === second.request.toolCall.toolCallId,
    );
    const firstSettled = harness
      .updates()
      .some((update) => update.sessionUpdate === "tool_call_update" && update.toolCallId === first.request.toolCall.toolCallId);
    expect(firstSettled).toBe(false);

    first.answer({ outcome: { outcome: "selected", optionId: optionOf(first, "reject_once") } });
    expect((await response).stopReason).toBe("end_turn");
    const text = harness.messageText();
    expect(text).toContain("git push --force origin main");
    expect(text).toContain("allow_once");
    expect(text).toContain("reject_once");
  });
});

describe("plan", () => {
  it("sends the whole plan on every change, moving each entry from pending to completed in turn", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "plan");
    const plans = harness.updates().filter((update) => update.sessionUpdate === "plan");
    const states = plans.map((update) => (update.sessionUpdate === "plan" ? update.entries.map((entry) => entry.status).join(",") : ""));
    expect(states).toEqual([
      "pending,pending,pending",
      "in_progress,pending,pending",
      "completed,pending,pending",
      "completed,in_progress,pending",
      "completed,completed,pending",
      "completed,completed,in_progress",
      "completed,completed,completed",
    ]);
    const first = plans[0];
    expect(first.sessionUpdate === "plan" && first.entries.map((entry) => entry.priority)).toEqual(["high", "medium", "low"]);
    expect(harness.messageText()).toContain("All three steps are done.");
  });
});

describe("tour", () => {
  it("'tour' plays markdown, plan, edit, run and background in one turn", async () => {
    harness = await DemoHarness.start({ config: { backgroundMs: 10 } });
    const sessionId = await harness.newSession();
    const response = await harness.prompt(sessionId, "tour");
    expect(response.stopReason).toBe("end_turn");
    const text = harness.messageText();
    expect(text).toContain("Tour 1/5: markdown");
    expect(text).toContain("Tour 5/5: background");
    const kinds = new Set(harness.updates().map((update) => update.sessionUpdate));
    for (const kind of ["agent_thought_chunk", "plan", "tool_call", "tool_call_update"]) expect(kinds.has(kind as never)).toBe(true);
    expect(requestsOf("fs/write_text_file")).toHaveLength(1);
    expect(requestsOf("terminal/create")).toHaveLength(1);
    await harness.waitForUpdate((update) => update.sessionUpdate === "tool_call_update" && update._meta?.terminal_exit !== undefined);
  });
});
