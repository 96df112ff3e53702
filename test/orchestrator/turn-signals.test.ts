import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { describeOpenWork, openWork } from "../../src/session/open-work.js";
import { agentLabel } from "../../src/session/profiles/select-profile.js";
import { displayStatus } from "../../src/session/state.js";
import { describeStatus } from "../../src/ui/status/status-text.js";
import { flush, startWithFake, type FakeAgent } from "./fake-agent.js";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
});
afterEach(() => {
  vi.useRealTimers();
});

const CLAUDE = { agentInfo: { name: "@agentclientprotocol/claude-agent-acp", version: "0.100.0" } };
const CODEX = { agentInfo: { name: "codex-acp", version: "0.16.0" } };
const OPENCODE = { agentInfo: { name: "OpenCode", version: "1.18.33" } };

/** claude-agent-acp's closing usage update, with whose turn it was. */
const marker = (kind: "human" | "task-notification") => ({
  sessionUpdate: "usage_update",
  used: 1,
  size: 10,
  _meta: { "_claude/origin": { kind } },
});

function startBackgroundJob(agent: FakeAgent): void {
  agent.update({
    sessionUpdate: "tool_call",
    toolCallId: "bg1",
    title: "sleep 3; echo done",
    kind: "execute",
    status: "pending",
    _meta: { terminal_info: { terminal_id: "bg1" } },
    content: [{ type: "terminal", terminalId: "bg1" }],
  });
  agent.update({
    sessionUpdate: "tool_call_update",
    toolCallId: "bg1",
    _meta: { claudeCode: { toolResponse: { backgroundTaskId: "task1" } } },
  });
  agent.update({
    sessionUpdate: "tool_call_update",
    toolCallId: "bg1",
    status: "completed",
    rawOutput: "Command running in background with ID: task1.",
  });
}

describe("turns end on the agent's own word", () => {
  it("claude 0.100: after end_turn the turn waits, however long the model takes, for Claude's own report on the background job; a message queued meanwhile goes after it", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 50, stallMs: 600_000 } }, CLAUDE);
    orch.send("Start the background job");
    startBackgroundJob(agent);
    agent.update(marker("human"));
    agent.respond(0);
    await flush();
    orch.send("Second prompt");
    expect(describeOpenWork(openWork(orch.state), agentLabel(orch.state))).toBe(
      "`sleep 3; echo done` running in the background (Claude reports back when it ends)",
    );
    // The job ends; Claude's model then takes its time before the report turn starts.
    agent.update({
      sessionUpdate: "tool_call_update",
      toolCallId: "bg1",
      _meta: { terminal_exit: { terminal_id: "bg1", exit_code: null, signal: null } },
    });
    expect(describeStatus(orch.state, { agentName: "claude" })?.text).toBe("waiting for Claude's report on `sleep 3; echo done`");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(orch.state.phase).toBe("draining");
    expect(agent.prompts).toHaveLength(1);
    agent.text("The background job printed: done");
    await vi.advanceTimersByTimeAsync(5_000);
    expect(agent.prompts).toHaveLength(1);
    agent.update(marker("task-notification"));
    await flush();
    // The report is a turn of Claude's own, ended by its marker; only then does the queued prompt go.
    expect(agent.prompts.map((p) => p.text)).toEqual(["Start the background job", "Second prompt"]);
    const report = orch.state.items.find((i) => i.kind === "agent" && i.text.includes("printed: done"))!;
    const turn = orch.state.turns.find((t) => t.id === report.turnId)!;
    expect(turn.origin).toBe("agent");
    expect(turn.endedAt).toBeDefined();
  });

  it("claude 0.100: a report that never comes ends at the stall timeout, with a notice saying so", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 50, stallMs: 60_000 } }, CLAUDE);
    orch.send("go");
    startBackgroundJob(agent);
    agent.respond(0);
    await flush();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(orch.state.phase).toBe("draining");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(orch.state.phase).toBe("idle");
    expect(
      orch.state.items.some(
        (i) => i.kind === "notice" && i.text === "Claude has not reported on `sleep 3; echo done`: no longer waiting for it",
      ),
    ).toBe(true);
  });

  it("claude 0.100: Esc while waiting for a report stops waiting", async () => {
    const { orch, agent } = await startWithFake({}, CLAUDE);
    orch.send("go");
    startBackgroundJob(agent);
    agent.respond(0);
    await flush();
    orch.cancel();
    expect(orch.state.phase).toBe("idle");
    expect(Object.values(orch.state.background).every((t) => t.abandonedAt !== undefined)).toBe(true);
  });

  it("codex: a command still running when its turn answers runs on in codex's session, shown, not waited on", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 50, stallMs: 600_000 } }, CODEX);
    orch.send("Run the slow command");
    agent.update({
      sessionUpdate: "tool_call",
      toolCallId: "exec",
      title: "sleep 8; echo done",
      kind: "execute",
      status: "in_progress",
      _meta: { terminal_info: { terminal_id: "exec" } },
    });
    agent.respond(0);
    await flush();
    expect(orch.state.phase).toBe("idle");
    expect(displayStatus(orch.state.toolCalls.exec)).toBe("background");
    // The next turn's poll is the only news, and it attaches to the same call.
    orch.send("Is it done?");
    agent.update({
      sessionUpdate: "tool_call_update",
      toolCallId: "exec",
      status: "completed",
      _meta: { terminal_exit: { terminal_id: "exec", exit_code: 0, signal: null } },
    });
    expect(displayStatus(orch.state.toolCalls.exec)).toBe("completed");
  });

  it("codex: an exec the wire never completes takes its exit from codex's own output", async () => {
    const { orch, agent } = await startWithFake({}, CODEX);
    orch.send("go");
    agent.update({ sessionUpdate: "tool_call", toolCallId: "exec", title: "make", kind: "execute", status: "in_progress" });
    agent.update({
      sessionUpdate: "tool_call_update",
      toolCallId: "exec",
      rawOutput: { formatted_output: "ok\nProcess exited with code 2" },
    });
    expect(displayStatus(orch.state.toolCalls.exec)).toBe("failed");
    agent.respond(0);
    await flush();
    expect(orch.state.phase).toBe("idle");
  });

  it("gemini, opencode and codex end the turn at the prompt response: no quiet period", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 60_000, stallMs: 600_000 } }, OPENCODE);
    orch.send("hi");
    agent.text("hello");
    agent.respond(0);
    await flush();
    expect(orch.state.phase).toBe("idle");
  });

  it("opencode: switching mode sets the config option the modes come from", async () => {
    const modeOption = {
      id: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: "build",
      options: [
        { value: "build", name: "build" },
        { value: "plan", name: "plan" },
      ],
    };
    const { orch, agent } = await startWithFake({}, OPENCODE, { configOptions: [modeOption] });
    expect(orch.state.modes?.currentModeId).toBe("build");
    await orch.setMode("plan");
    expect(agent.configCalls).toEqual([{ configId: "mode", value: "plan" }]);
    expect(agent.modeCalls).toEqual([]);
  });

  it("an agent that reports its state (ACP v2 state_update) is done when it says idle with nothing in the background", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 60_000, stallMs: 600_000 } });
    orch.send("go");
    agent.update({ sessionUpdate: "state_update", state: "running" });
    agent.update({
      sessionUpdate: "state_update",
      state: "idle",
      stopReason: "end_turn",
      background: [{ type: "tool_call", toolCallId: "bg" }],
    });
    agent.respond(0);
    await flush();
    orch.send("queued");
    expect(orch.state.phase).toBe("draining");
    expect(describeOpenWork(openWork(orch.state), "the agent")).toBe("the agent reports 1 background task running");
    agent.update({ sessionUpdate: "state_update", state: "running", background: [] });
    agent.text("The job is done.");
    agent.update({ sessionUpdate: "state_update", state: "idle", stopReason: "end_turn", background: [] });
    await flush();
    expect(agent.prompts.map((p) => p.text)).toEqual(["go", "queued"]);
    expect(orch.state.items.some((i) => i.kind === "unknown")).toBe(false);
  });

  it("an agent with no signal: the quiet period after background work ended is the longer one, and the status line names it", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 100, backgroundQuietMs: 3_000, stallMs: 600_000 } });
    orch.send("go");
    agent.update({ sessionUpdate: "tool_call", toolCallId: "bg", title: "build", kind: "execute", status: "in_progress" });
    agent.respond(0);
    await flush();
    agent.update({ sessionUpdate: "tool_call_update", toolCallId: "bg", status: "completed" });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(orch.state.phase).toBe("draining");
    expect(describeStatus(orch.state, { agentName: "fake", timing: orch.timing })?.text).toBe(
      "background work ended: waiting 3 s for fake to follow up (it gives no turn signal)",
    );
    await vi.advanceTimersByTimeAsync(2_100);
    expect(orch.state.phase).toBe("idle");
  });

  it("an unknown agent that ends its own turn with _session/turn_ended (claude-agent-acp PR #997): the drain ends on it, not on a quiet period", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 60_000, stallMs: 600_000 } });
    orch.send("go");
    agent.text("Done.");
    agent.respond(0);
    await vi.advanceTimersByTimeAsync(61_000);
    expect(orch.state.phase).toBe("idle");
    // With no prompt pending, the agent starts a turn of its own and ends it with the notification.
    agent.text("A background task finished: here is what it found.");
    await flush();
    orch.send("queued");
    expect(orch.state.phase).toBe("draining");
    agent.hooks.onExtNotification?.("_session/turn_ended", {
      sessionId: "s1",
      stopReason: "end_turn",
      _meta: { "_claude/origin": { kind: "task-notification" } },
    });
    await flush();
    expect(agent.prompts.map((p) => p.text)).toEqual(["go", "queued"]);
    const own = orch.state.turns.find((t) => t.origin === "agent")!;
    expect(own.endedAt).toBeDefined();
  });

  it("_session/turn_ended for another session, or an extension notification conch does not know, changes nothing", async () => {
    const { orch, agent } = await startWithFake({ timing: { quietMs: 60_000, stallMs: 600_000 } });
    agent.text("on its own");
    await flush();
    const before = orch.state;
    agent.hooks.onExtNotification?.("_session/turn_ended", { sessionId: "other", stopReason: "end_turn" });
    agent.hooks.onExtNotification?.("_auth/status_update", { authStatus: { kind: "gateway" } });
    await flush();
    expect(orch.state.turns).toEqual(before.turns);
    expect(orch.state.phase).toBe("draining");
  });

  it("codex-acp 2.x: threadStatus idle ends the turn at its response; a command left running is shown live without holding the queue", async () => {
    const { orch, agent } = await startWithFake(
      { timing: { quietMs: 60_000, stallMs: 600_000 } },
      { agentInfo: { name: "@agentclientprotocol/codex-acp", version: "2.6.0" } },
    );
    const status = (type: string) => ({
      sessionUpdate: "session_info_update",
      _meta: { codex: { threadStatus: { type, activeFlags: [] } } },
    });
    orch.send("Start the slow command and don't wait for it.");
    agent.update(status("active"));
    agent.update({
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "sleep 1; echo tick",
      kind: "execute",
      status: "in_progress",
      content: [{ type: "terminal", terminalId: "c1" }],
      _meta: { terminal_info: { terminal_id: "c1" } },
    });
    agent.update(status("idle"));
    agent.respond(0);
    await flush();
    orch.send("next");
    await flush();
    expect(agent.prompts.map((p) => p.text)).toEqual(["Start the slow command and don't wait for it.", "next"]);
    expect(displayStatus(orch.state.toolCalls.c1)).toBe("background");
    agent.update({
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      _meta: { terminal_output: { terminal_id: "c1", data: "tick\n" } },
    });
    await flush();
    expect(orch.state.terminals.c1.outputTail).toBe("tick\n");
  });
});
