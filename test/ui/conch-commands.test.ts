// conch's own slash commands for the protocol's session methods and options, run as the input line
// runs them: what the user is shown, and which intent reaches the session.
import { describe, expect, it } from "vitest";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { CommandContext } from "../../src/ui/commands/command-context.js";
import { conchCommandOf } from "../../src/ui/commands/conch-commands.js";
import { FakeSession } from "./fake-session.js";

const MODEL: SessionConfigOption = {
  type: "select",
  id: "model",
  name: "Model",
  category: "model",
  currentValue: "fast",
  options: [
    { value: "fast", name: "Fast" },
    { value: "smart", name: "Smart" },
  ],
};
const CONTEXT: SessionConfigOption = {
  type: "select",
  id: "context",
  name: "Context window",
  category: "model_config",
  currentValue: "32k",
  options: [
    { value: "32k", name: "32k" },
    { value: "200k", name: "200k" },
  ],
};
const THINKING: SessionConfigOption = { type: "boolean", id: "thinking", name: "Show thinking", currentValue: false };

/** Submits `/name args` as the input does, collecting what is shown and whether the screen was cleared. */
function run(session: FakeSession, name: string, args = "") {
  const shown: { lines: string[]; tone?: string }[] = [];
  let cleared = 0;
  const ctx: CommandContext = {
    port: session,
    state: session.state,
    show: (lines, tone) => shown.push({ lines: Array.isArray(lines) ? lines : [lines], tone }),
    clearScreen: () => void cleared++,
    toggleExpanded: () => true,
    restart: () => undefined,
    quit: () => undefined,
  };
  const conch = conchCommandOf(`/${name} ${args}`);
  if (!conch) throw new Error(`/${name} is not one of conch's commands`);
  conch.command.run(conch.args, ctx);
  return { shown: shown.flatMap((s) => s.lines), tones: shown.map((s) => s.tone), cleared };
}

function withOptions(...configOptions: SessionConfigOption[]): FakeSession {
  return new FakeSession().open({ configOptions });
}

function withCapabilities(capabilities: Record<string, unknown>): FakeSession {
  const session = new FakeSession();
  session.emit({ type: "agent_ready", info: { name: "fake", version: "1" }, capabilities });
  return session.open();
}

describe("/config with a boolean option", () => {
  it("lists it as on/off with the words it takes", () => {
    const { shown } = run(withOptions(MODEL, THINKING), "config");
    expect(shown).toContain("thinking = off · on, off, toggle · Show thinking");
    expect(shown).toContain("model = Fast (fast) · fast, smart · Model");
  });

  it.each([
    ["on", true],
    ["off", false],
    ["toggle", true],
  ])("/config thinking %s sets it to %s", (word, value) => {
    const session = withOptions(THINKING);
    run(session, "config", `thinking ${word}`);
    expect(session.calls).toContainEqual({ intent: "setConfigOption", args: ["thinking", value] });
  });

  it("refuses a word that is not a switch's", () => {
    const session = withOptions(THINKING);
    const { shown, tones } = run(session, "config", "thinking maybe");
    expect(shown).toEqual(["thinking is a switch: on, off or toggle"]);
    expect(tones).toEqual(["error"]);
    expect(session.intents()).not.toContain("setConfigOption");
  });
});

describe("/model", () => {
  it("lists the models and, next to them, the model's settings (model_config)", () => {
    const { shown } = run(withOptions(MODEL, CONTEXT, THINKING), "model");
    expect(shown).toEqual([
      "models:",
      "● Fast (fast)",
      "○ Smart (smart)",
      "",
      "model settings (/config <id> <value>):",
      "context = 32k · 32k, 200k · Context window",
    ]);
  });

  it("switches through the session's model intent, which prefers the config option", () => {
    const session = withOptions(MODEL);
    run(session, "model", "smart");
    expect(session.calls).toContainEqual({ intent: "setModel", args: ["smart"] });
  });
});

describe("/clear", () => {
  it("clears the screen and starts a new session", () => {
    const session = new FakeSession().open();
    const { cleared } = run(session, "clear");
    expect(cleared).toBe(1);
    expect(session.intents()).toEqual(["newConversation"]);
  });

  it("only clears the screen while no session is open", () => {
    const session = new FakeSession();
    const { cleared } = run(session, "clear");
    expect(cleared).toBe(1);
    expect(session.intents()).toEqual([]);
  });
});

describe("/fork and /logout", () => {
  it("/fork forks where the agent can, and says it cannot elsewhere", () => {
    const can = withCapabilities({ sessionCapabilities: { fork: {} } });
    run(can, "fork");
    expect(can.intents()).toEqual(["fork"]);
    const cannot = withCapabilities({ sessionCapabilities: {} });
    expect(run(cannot, "fork").shown).toEqual(["this agent cannot fork sessions"]);
    expect(cannot.intents()).toEqual([]);
  });

  it("/logout logs out where the agent offers it", () => {
    const can = withCapabilities({ auth: { logout: {} } });
    run(can, "logout");
    expect(can.intents()).toEqual(["logout"]);
    expect(run(withCapabilities({}), "logout").shown).toEqual(["this agent does not offer a logout"]);
  });
});

describe("/mode with a mode that drops approvals", () => {
  const gemini = () => {
    const session = new FakeSession();
    session.emit({ type: "agent_ready", info: { name: "gemini-cli", version: "0.61.0" } });
    return session.open({
      modes: {
        currentModeId: "default",
        availableModes: [
          { id: "default", name: "Default", description: "Prompts for approval" },
          { id: "yolo", name: "YOLO", description: "Auto-approves all tools" },
        ],
      },
    });
  };

  it("lists it marked, and says Shift+Tab leaves it out", () => {
    const { shown } = run(gemini(), "mode");
    expect(shown).toEqual([
      "modes (shift+tab cycles; ⚠ drops approvals or the sandbox: only by name, /mode <id>):",
      "● Default (default) · Prompts for approval",
      "○ YOLO (yolo) ⚠ · Auto-approves all tools",
    ]);
  });

  it("switches to it when named, saying what it means", () => {
    const session = gemini();
    const { shown } = run(session, "mode", "yolo");
    expect(shown).toEqual(["⚠ YOLO (yolo): Auto-approves all tools"]);
    expect(session.calls).toContainEqual({ intent: "setMode", args: ["yolo"] });
  });
});
