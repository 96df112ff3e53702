import { afterEach, describe, expect, it } from "vitest";
import type { AvailableCommand, SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk";
import { DemoHarness } from "./support/demo-harness.js";

let harness: DemoHarness;
afterEach(async () => harness?.close());

interface NewSessionResult {
  sessionId: string;
  modes: SessionModeState;
  configOptions: SessionConfigOption[];
}

describe("demo agent setup", () => {
  it("introduces itself with its capabilities, and a login it completes itself (no terminal login for a client that cannot run one)", async () => {
    harness = await DemoHarness.start();
    const init = harness.received.find((message) => message.id === 1)?.result;
    expect(init).toMatchObject({
      protocolVersion: 1,
      agentInfo: { name: "conch-demo", title: "conch demo agent" },
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, embeddedContext: true },
        sessionCapabilities: { list: {}, resume: {}, close: {}, fork: {}, additionalDirectories: {} },
        auth: { logout: {} },
      },
      authMethods: [{ id: "demo-login" }],
    });
  });

  it("opens a session with three modes, a model picker, and then announces its slash commands", async () => {
    harness = await DemoHarness.start();
    const created = await harness.request<NewSessionResult>("session/new", { cwd: "/tmp", mcpServers: [] });
    expect(created.sessionId).toMatch(/^demo-/);
    expect(created.modes.currentModeId).toBe("code");
    expect(created.modes.availableModes.map((mode) => [mode.id, mode.name])).toEqual([
      ["ask", "Ask before edits"],
      ["code", "Code"],
      ["plan", "Plan only"],
    ]);
    const model = created.configOptions[0];
    expect(model).toMatchObject({ id: "model", type: "select", currentValue: "demo-fast" });
    expect(model.type === "select" && model.options.map((option) => ("value" in option ? option.value : ""))).toEqual([
      "demo-fast",
      "demo-smart",
    ]);

    const index = await harness.waitForUpdate((update) => update.sessionUpdate === "available_commands_update");
    const responseIndex = harness.received.findIndex((message) => message.id === 2);
    expect(index).toBeGreaterThan(responseIndex);
    const update = harness.updates().find((candidate) => candidate.sessionUpdate === "available_commands_update");
    const commands: AvailableCommand[] = update?.sessionUpdate === "available_commands_update" ? update.availableCommands : [];
    expect(commands.map((command) => command.name)).toEqual(
      expect.arrayContaining(["tour", "markdown", "edit", "run", "background", "plan", "permission", "help"]),
    );
    expect(commands.every((command) => command.description.length > 0)).toBe(true);
    expect(commands.find((command) => command.name === "edit")?.input?.hint).toBeTruthy();
  });

  it("switches modes with a current_mode_update and rejects unknown modes", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    await harness.request("session/set_mode", { sessionId, modeId: "ask" });
    expect(harness.updates()).toContainEqual({ sessionUpdate: "current_mode_update", currentModeId: "ask" });
    await expect(harness.request("session/set_mode", { sessionId, modeId: "yolo" })).rejects.toThrow();
  });

  it("switches the model, answering with the updated options and a config_option_update", async () => {
    harness = await DemoHarness.start();
    const sessionId = await harness.newSession();
    const response = await harness.request<{ configOptions: SessionConfigOption[] }>("session/set_config_option", {
      sessionId,
      configId: "model",
      value: "demo-smart",
    });
    expect(response.configOptions[0]).toMatchObject({ id: "model", currentValue: "demo-smart" });
    const update = harness.updates().find((candidate) => candidate.sessionUpdate === "config_option_update");
    expect(update).toMatchObject({
      configOptions: [
        { id: "model", currentValue: "demo-smart" },
        { id: "context", category: "model_config" },
      ],
    });
    await expect(harness.request("session/set_config_option", { sessionId, configId: "model", value: "gpt-17" })).rejects.toThrow();
  });

  it("answers prompts for unknown sessions with an error", async () => {
    harness = await DemoHarness.start();
    await expect(harness.prompt("demo-nope", "hello")).rejects.toThrow();
  });
});
