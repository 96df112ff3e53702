import type { McpServer } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { openedSession, passedDirectories, passedMcpServers, reopenMode } from "../../src/orchestrator/session-response.js";

const stdio: McpServer = { name: "files", command: "mcp-files", args: [], env: [] };
const http: McpServer = { type: "http", name: "search", url: "https://example.test/mcp", headers: [] };
const sse: McpServer = { type: "sse", name: "events", url: "https://example.test/sse", headers: [] };

describe("how a session is reopened", () => {
  it("prefers a replay for --resume and no replay after a restart or a login, and falls back to the other", () => {
    const both = { loadSession: true, sessionCapabilities: { resume: {} } };
    expect(reopenMode(both, "s1", "replay")).toEqual({ kind: "load", sessionId: "s1" });
    expect(reopenMode(both, "s1", "no-replay")).toEqual({ kind: "resume", sessionId: "s1" });
    expect(reopenMode({ loadSession: true }, "s1", "no-replay")).toEqual({ kind: "load", sessionId: "s1" });
    expect(reopenMode({ sessionCapabilities: { resume: {} } }, "s1", "replay")).toEqual({ kind: "resume", sessionId: "s1" });
  });

  it("opens a new session when the agent can neither load nor resume", () => {
    expect(reopenMode({}, "s1", "replay")).toEqual({ kind: "new" });
  });
});

describe("what a session is opened with", () => {
  it("passes --add-dir directories to an agent that takes them, and names them in a warning to one that does not", () => {
    expect(passedDirectories(["/a", "/b"], { sessionCapabilities: { additionalDirectories: {} } }, "claude")).toEqual({
      dirs: ["/a", "/b"],
    });
    expect(passedDirectories(["/a", "/b"], {}, "codex")).toEqual({
      dirs: [],
      warning: "codex does not take additional directories, so these were not passed: /a, /b",
    });
    expect(passedDirectories([], {}, "codex")).toEqual({ dirs: [] });
  });

  it("passes stdio MCP servers always, http and sse only where advertised, and names the others in a warning", () => {
    expect(passedMcpServers([stdio, http, sse], { mcpCapabilities: { http: true } }, "gemini")).toEqual({
      servers: [stdio, http],
      warning: "gemini does not support these MCP servers' transports, so they were not passed: events (sse)",
    });
    expect(passedMcpServers([stdio], {}, "gemini")).toEqual({ servers: [stdio] });
  });

  it("reads the opened session from the answer, models only when well formed", () => {
    const known = { cwd: "/w", agentName: "claude" };
    const models = { currentModelId: "opus", availableModels: [{ modelId: "opus", name: "Opus" }] };
    expect(openedSession(known, "s9", { models }, "resume")).toEqual({
      ...known,
      sessionId: "s9",
      modes: undefined,
      models,
      configOptions: undefined,
      origin: "resume",
    });
    expect(openedSession(known, "s9", { models: { availableModels: [] } }, "new").models).toBeUndefined();
  });
});
