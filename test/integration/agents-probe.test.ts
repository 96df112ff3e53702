import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runConch, tempDir } from "../support/run-conch.js";

describe("conch agents --probe", () => {
  it("starts the demo agent, reads initialize and session/new, closes the session and says what conch will use", async () => {
    const r = await runConch(["agents", "--probe", "demo"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^demo: /);
    expect(r.stdout).toContain("conch-demo 0.1.0 (conch demo agent) · protocol 1");
    expect(r.stdout).toMatch(/session\/new in \d+ ms, then session\/close/);
    expect(r.stdout).toMatch(/ {2}session\/load +yes +--resume opens the session with its history replayed/);
    expect(r.stdout).toMatch(/ {2}steering +yes +Ctrl-S sends a message into the running turn/);
    expect(r.stdout).toMatch(/ {2}modes +ask, code\*, plan +Shift\+Tab and \/mode switch them/);
  });

  it("probes any command line with --agent, warns about MCP servers the agent will not take, and speaks JSON", async () => {
    const config = path.join(tempDir(), "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: [
          { name: "files", command: "true" },
          { name: "docs", type: "http", url: "http://127.0.0.1:9/mcp" },
        ],
      }),
    );
    const agent = `${process.execPath} ${path.join(ROOT, "dist/demo/main.js")}`;
    const r = await runConch(["agents", "--probe", "--agent", agent, "--json"], { env: { CONCH_CONFIG: config } });
    expect(r.code).toBe(0);
    const [report] = JSON.parse(r.stdout);
    expect(report.name).toBe("conch-demo");
    expect(report.ok).toBe(true);
    expect(report.initialize.agentCapabilities.loadSession).toBe(true);
    expect(report.newSession.sessionId).toMatch(/^demo-/);
    expect(report.session).toMatchObject({ ok: true, closed: true });
    expect(report.warnings).toEqual(['MCP server "docs" (http) will be dropped: the agent does not take http servers']);
  });

  it("says why an agent cannot be probed, and exits 1", async () => {
    const r = await runConch(["agents", "--probe", "--agent", "/nonexistent/agent --acp"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("could not probe it:");
  });

  it("takes --probe only with agents, and one name", async () => {
    expect((await runConch(["sessions", "--probe"])).code).toBe(2);
    const two = await runConch(["agents", "--probe", "demo", "claude"]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain("--probe takes one agent name");
  });
});
