import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionInfo, SessionUpdate } from "@agentclientprotocol/sdk";
import { CRASH_STDERR } from "../../src/demo/scenarios/crash.js";
import { MARKDOWN_ANSWER } from "../../src/demo/scenarios/markdown.js";
import { DemoHarness } from "./support/demo-harness.js";

const harnesses: DemoHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function start(options: Parameters<typeof DemoHarness.start>[0] = {}): Promise<DemoHarness> {
  const harness = await DemoHarness.start(options);
  harnesses.push(harness);
  return harness;
}

const textOf = (updates: SessionUpdate[], kind: "user_message_chunk" | "agent_message_chunk") =>
  updates
    .map((update) =>
      (update.sessionUpdate === "user_message_chunk" || update.sessionUpdate === "agent_message_chunk") &&
      update.sessionUpdate === kind &&
      update.content.type === "text"
        ? update.content.text
        : "",
    )
    .join("");

describe("saved sessions", () => {
  it("a new process replays a session's history on session/load, before answering", async () => {
    const first = await start();
    const cwd = mkdtempSync(join(tmpdir(), "conch-demo-cwd-"));
    const sessionId = await first.newSession(cwd);
    await first.prompt(sessionId, "markdown");
    await first.prompt(sessionId, "permission");
    await first.close();

    const second = await start({ stateDir: first.stateDir });
    const load = second.requestRaw("session/load", { sessionId, cwd, mcpServers: [] });
    const loaded = await load;
    expect(loaded.result).toMatchObject({ modes: { currentModeId: "code" }, configOptions: [{ id: "model" }, { id: "context" }] });
    const answeredAt = second.received.indexOf(loaded);
    const before = second.received.slice(0, answeredAt).filter((message) => message.method === "session/update");
    const replayed = before.map((message) => (message.params as { update: SessionUpdate }).update);

    expect(replayed.length).toBeGreaterThan(0);
    expect(textOf(replayed, "user_message_chunk")).toBe("markdownpermission");
    expect(textOf(replayed, "agent_message_chunk").startsWith(MARKDOWN_ANSWER)).toBe(true);
    expect(replayed.filter((update) => update.sessionUpdate === "agent_thought_chunk").length).toBe(1);
    expect(replayed.some((update) => update.sessionUpdate === "tool_call" && update.title === "rm -rf build/")).toBe(true);
    // Meters and settings are not history.
    expect(replayed.some((update) => update.sessionUpdate === "usage_update")).toBe(false);

    // The loaded session goes on where it left off.
    expect((await second.prompt(sessionId, "refuse")).stopReason).toBe("refusal");
  });

  it("session/resume restores the session without replaying anything", async () => {
    const first = await start();
    const sessionId = await first.newSession();
    await first.prompt(sessionId, "markdown");
    await first.close();

    const second = await start({ stateDir: first.stateDir });
    const before = second.received.length;
    await second.request("session/resume", { sessionId, cwd: "/tmp" });
    const afterResponse = second.updates(before).filter((update) => update.sessionUpdate !== "available_commands_update");
    expect(afterResponse).toEqual([]);
    expect((await second.prompt(sessionId, "refuse")).stopReason).toBe("refusal");
  });

  it("session/load of an unknown id is an error", async () => {
    const harness = await start();
    await expect(harness.request("session/load", { sessionId: "demo-missing", cwd: "/tmp", mcpServers: [] })).rejects.toThrow();
  });

  it("session/list returns saved sessions with cwd, first prompt as title and updatedAt, filtered by cwd", async () => {
    const first = await start();
    const cwdA = mkdtempSync(join(tmpdir(), "conch-demo-a-"));
    const cwdB = mkdtempSync(join(tmpdir(), "conch-demo-b-"));
    const a = await first.newSession(cwdA);
    await first.prompt(a, "show me the plan");
    const b = await first.newSession(cwdB);
    await first.prompt(b, "refuse");
    await first.close();

    const second = await start({ stateDir: first.stateDir });
    const all = await second.request<{ sessions: SessionInfo[] }>("session/list", {});
    expect(all.sessions.map((session) => session.sessionId).sort()).toEqual([a, b].sort());
    const onlyA = await second.request<{ sessions: SessionInfo[] }>("session/list", { cwd: cwdA });
    expect(onlyA.sessions).toEqual([{ sessionId: a, cwd: cwdA, title: "show me the plan", updatedAt: expect.any(String) }]);
    expect(Number.isNaN(Date.parse(onlyA.sessions[0].updatedAt ?? ""))).toBe(false);
  });

  it("a background job still running when the process goes is saved open, and after a load its pane comes alive again and completes the original call", async () => {
    const first = await start({ config: { backgroundMs: 60_000 } });
    const sessionId = await first.newSession();
    await first.prompt(sessionId, "background");
    await first.close();

    const second = await start({ stateDir: first.stateDir, config: { backgroundMs: 20 } });
    const loaded = await second.requestRaw("session/load", { sessionId, cwd: "/tmp", mcpServers: [] });
    const answeredAt = second.received.indexOf(loaded);
    const replayedCall = second.updates().find((update) => update.sessionUpdate === "tool_call");
    expect(replayedCall).toMatchObject({ status: "in_progress" });
    const toolCallId = (replayedCall as { toolCallId: string }).toolCallId;
    const terminalInfo = (replayedCall as { _meta?: { terminal_info?: unknown } })._meta?.terminal_info;
    const done = await second.waitForUpdate(
      (update) => update.sessionUpdate === "tool_call_update" && (update.status === "completed" || update.status === "failed"),
    );
    expect(done).toBeGreaterThan(answeredAt);
    const closing = JSON.stringify(second.received[done]);
    expect(closing).toContain(toolCallId);
    if (terminalInfo) {
      expect(closing).toContain('"status":"completed"');
      expect(closing).toContain("terminal_exit");
    } else {
      expect(closing).toContain("interrupted");
    }
  });

  it("crash streams some text, writes to stderr, saves the session and exits 1", async () => {
    const harness = await start();
    const sessionId = await harness.newSession();
    void harness.prompt(sessionId, "crash");
    expect(await harness.exited).toBe(1);
    expect(harness.exitCodes).toEqual([1]);
    expect(harness.stderr).toBe(CRASH_STDERR);
    expect(harness.messageText()).toContain("cheese");
    expect(readdirSync(harness.stateDir)).toContain(`${encodeURIComponent(sessionId)}.json`);
  });
});
