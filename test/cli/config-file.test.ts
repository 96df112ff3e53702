import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, mcpServersFor } from "../../src/agents/config-file.js";
import { resolveAgent } from "../../src/agents/presets.js";
import { tempDir } from "../support/run-conch.js";

function setup(user: unknown, project?: unknown) {
  const home = tempDir();
  const repo = tempDir();
  mkdirSync(path.join(repo, ".git"));
  mkdirSync(path.join(home, "conch"), { recursive: true });
  if (user !== undefined) writeFileSync(path.join(home, "conch/config.json"), typeof user === "string" ? user : JSON.stringify(user));
  if (project !== undefined) writeFileSync(path.join(repo, ".conch.json"), JSON.stringify(project));
  mkdirSync(path.join(repo, "sub"));
  return { env: { XDG_CONFIG_HOME: home, CONCH_STATE_DIR: path.join(home, "state") }, cwd: path.join(repo, "sub") };
}

describe("the config file", () => {
  it("no config file means defaults", () => {
    const { env, cwd } = setup(undefined);
    expect(loadConfig(cwd, env)).toMatchObject({ agents: {}, mcpServers: [] });
  });

  it("custom agents resolve by name, with their env", () => {
    const { env, cwd } = setup({ defaultAgent: "mine", agents: { mine: { command: "/opt/mine", args: ["--acp"], env: { MODE: "x" } } } });
    const config = loadConfig(cwd, env);
    expect(config.defaultAgent).toBe("mine");
    expect(resolveAgent("mine", config.agents)).toMatchObject({
      via: "config",
      command: { command: "/opt/mine", args: ["--acp"], env: { MODE: "x" } },
    });
  });

  it("a trusted project's .conch.json overrides the user config, found from a subdirectory", () => {
    const { env, cwd } = setup(
      {
        permissions: "deny",
        mcpServers: [
          { name: "a", command: "a" },
          { name: "b", command: "b" },
        ],
      },
      { permissions: "approve-reads", mcpServers: [{ name: "b", type: "http", url: "http://127.0.0.1:9/mcp" }] },
    );
    const config = loadConfig(cwd, env, { trust: true });
    expect(config.permissions).toBe("approve-reads");
    expect(mcpServersFor(config)).toEqual([
      { name: "a", command: "a", args: [], env: [] },
      { type: "http", name: "b", url: "http://127.0.0.1:9/mcp", headers: [] },
    ]);
  });

  it("an invalid config is a clear error naming the file and the field", () => {
    const { env, cwd } = setup({ agents: { x: { args: [] } }, bogus: 1 });
    expect(() => loadConfig(cwd, env)).toThrow(ConfigError);
    expect(() => loadConfig(cwd, env)).toThrow(/agents\.x\.command/);
    const bad = setup("{ not json");
    expect(() => loadConfig(bad.cwd, bad.env)).toThrow(/not valid JSON/);
  });
});

import { mergeSessions } from "../../src/cli/sessions-command.js";

describe("conch sessions --agent", () => {
  it("merges the agent's session/list into the local index; local records win, agent-only ones are marked", () => {
    const local = [
      {
        id: "a",
        agent: "codex",
        agentCommand: ["codex-acp"],
        cwd: "/p",
        title: "local title",
        createdAt: "2026-01-01T00:00:00Z",
        updatedAt: "2026-01-02T00:00:00Z",
        messageCount: 2,
      },
    ];
    const merged = mergeSessions(
      local,
      [
        { sessionId: "a", cwd: "/p", title: "remote" },
        { sessionId: "b", cwd: "/p", title: "only at the agent", updatedAt: "2026-01-03T00:00:00Z" },
      ],
      "codex",
    );
    expect(merged.map((r) => [r.id, r.title, r.source])).toEqual([
      ["b", "only at the agent", "agent"],
      ["a", "local title", "both"],
    ]);
  });
});
