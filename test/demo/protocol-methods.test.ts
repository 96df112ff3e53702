// The demo agent's side of the methods and capabilities conch uses: logout, fork,
// additionalDirectories, boolean and model_config options, $/cancel_request, identified plans.
import { afterEach, describe, expect, it } from "vitest";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { DemoHarness, FULL_CAPABILITIES } from "./support/demo-harness.js";

let harness: DemoHarness;
afterEach(async () => harness?.close());

const initResult = (h: DemoHarness) => h.received.find((message) => message.id === 1)?.result as { authMethods: { id: string }[] };

describe("logout", () => {
  it("forgets the login: sessions need one again, and authenticate gives it back", async () => {
    harness = await DemoHarness.start();
    await harness.newSession();
    await expect(harness.request("logout", {})).resolves.toEqual({});
    await expect(harness.request("session/new", { cwd: "/tmp", mcpServers: [] })).rejects.toMatchObject({ code: -32000 });
    await harness.request("authenticate", { methodId: "demo-login" });
    await expect(harness.newSession()).resolves.toMatch(/^demo-/);
  });
});

describe("auth.terminal", () => {
  it("offers the terminal login only to a client that advertises auth.terminal", async () => {
    harness = await DemoHarness.start({ capabilities: { ...FULL_CAPABILITIES, auth: { terminal: true } } });
    expect(initResult(harness).authMethods.map((m) => m.id)).toEqual(["demo-login", "demo-terminal-login"]);
    await harness.close();
    harness = await DemoHarness.start();
    expect(initResult(harness).authMethods.map((m) => m.id)).toEqual(["demo-login"]);
  });
});

describe("session/fork", () => {
  it("starts a new session with a copy of the history; the source is untouched", async () => {
    harness = await DemoHarness.start();
    const source = await harness.newSession();
    await harness.prompt(source, "refuse");
    const forked = await harness.request<{ sessionId: string; configOptions: SessionConfigOption[] }>("session/fork", {
      sessionId: source,
      cwd: "/tmp",
      mcpServers: [],
    });
    expect(forked.sessionId).not.toBe(source);
    expect(forked.configOptions[0]).toMatchObject({ id: "model" });
    // A load of the fork replays the source's prompt.
    const from = harness.received.length;
    await harness.request("session/load", { sessionId: forked.sessionId, cwd: "/tmp", mcpServers: [] });
    expect(harness.updates(from)).toContainEqual({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "refuse" } });
    expect((await harness.prompt(source, "refuse")).stopReason).toBe("refusal");
  });

  it("refuses to fork a session it does not know", async () => {
    harness = await DemoHarness.start();
    await expect(harness.request("session/fork", { sessionId: "demo-nope", cwd: "/tmp" })).rejects.toMatchObject({ code: -32002 });
  });
});

describe("additionalDirectories", () => {
  it("keeps the directories a session is opened with, and a resume without them drops them", async () => {
    harness = await DemoHarness.start();
    const { sessionId } = await harness.request<{ sessionId: string }>("session/new", {
      cwd: "/tmp/a",
      mcpServers: [],
      additionalDirectories: ["/tmp/b", "/tmp/c"],
    });
    await harness.prompt(sessionId, "settings");
    expect(harness.messageText()).toContain("`/tmp/b`, `/tmp/c` (additionalDirectories)");
    await harness.request("session/resume", { sessionId, cwd: "/tmp/a", mcpServers: [] });
    const from = harness.received.length;
    await harness.prompt(sessionId, "settings");
    expect(harness.messageText(from)).toContain("with no additional directories");
  });
});

describe("config options", () => {
  it("offers the boolean thinking switch only to clients that take boolean options, and sets it with type boolean", async () => {
    harness = await DemoHarness.start();
    const plain = await harness.request<{ sessionId: string; configOptions: SessionConfigOption[] }>("session/new", {
      cwd: "/tmp",
      mcpServers: [],
    });
    expect(plain.configOptions.map((o) => o.id)).toEqual(["model", "context"]);
    await expect(
      harness.request("session/set_config_option", { sessionId: plain.sessionId, configId: "thinking", type: "boolean", value: true }),
    ).rejects.toThrow();
    await harness.close();

    harness = await DemoHarness.start({ capabilities: { ...FULL_CAPABILITIES, session: { configOptions: { boolean: {} } } } });
    const opened = await harness.request<{ sessionId: string; configOptions: SessionConfigOption[] }>("session/new", {
      cwd: "/tmp",
      mcpServers: [],
    });
    expect(opened.configOptions.find((o) => o.id === "thinking")).toMatchObject({ type: "boolean", currentValue: false });
    const set = await harness.request<{ configOptions: SessionConfigOption[] }>("session/set_config_option", {
      sessionId: opened.sessionId,
      configId: "thinking",
      type: "boolean",
      value: true,
    });
    expect(set.configOptions.find((o) => o.id === "thinking")).toMatchObject({ currentValue: true });
    await harness.prompt(opened.sessionId, "refuse");
    expect(harness.updates().some((u) => u.sessionUpdate === "agent_thought_chunk")).toBe(true);
  });

  it("has a model_config option next to the model picker", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const set = await harness.request<{ configOptions: SessionConfigOption[] }>("session/set_config_option", {
      sessionId,
      configId: "context",
      value: "200k",
    });
    expect(set.configOptions.find((o) => o.id === "context")).toMatchObject({ category: "model_config", currentValue: "200k" });
  });
});

describe("$/cancel_request", () => {
  it("a slow session/load the client gives up on answers -32800 and replays nothing", async () => {
    harness = await DemoHarness.start({ config: { loadMs: 60_000 } });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "refuse");
    const from = harness.received.length;
    const load = harness.requestRaw("session/load", { sessionId, cwd: "/tmp", mcpServers: [] });
    const requestId = harness.sent.at(-1)!.id;
    await harness.notify("$/cancel_request", { requestId });
    expect((await load).error?.code).toBe(-32800);
    expect(harness.updates(from)).toEqual([]);
  });
});

describe("plan_update / plan_removed", () => {
  it("sends identified plans to a client that advertises the plan capability", async () => {
    harness = await DemoHarness.start({ capabilities: { ...FULL_CAPABILITIES, plan: {} } as never });
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "plans");
    const kinds = harness.updates().map((u) => u.sessionUpdate as string);
    expect(kinds.filter((k) => k === "plan_update").length).toBe(5);
    expect(kinds).toContain("plan_removed");
    expect(kinds).not.toContain("plan");
  });

  it("sends a classic plan to a client that does not", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    await harness.prompt(sessionId, "plans");
    const kinds = harness.updates().map((u) => u.sessionUpdate as string);
    expect(kinds).toContain("plan");
    expect(kinds).not.toContain("plan_update");
  });
});
