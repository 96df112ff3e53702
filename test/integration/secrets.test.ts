import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runConch, tempDir } from "../support/run-conch.js";

const HOSTILE = path.resolve(__dirname, "../support/hostile-agent.mjs");

/** Every secret the user's config hands the agent, each one a different shape. */
const SECRETS = {
  agentEnv: "Qw3rTy7UiOp9AsDfGh2J",
  mcpEnv: "ghtok-zzz-999",
  mcpArg: "argsecret-123",
  header: "hdr-secret-777",
  otherHeader: "other-secret-555",
};

function userConfig(): string {
  const file = path.join(tempDir("conch-config-"), "config.json");
  writeFileSync(
    file,
    JSON.stringify({
      agents: { hostile: { command: process.execPath, args: [HOSTILE], env: { HOSTILE_SECRET: SECRETS.agentEnv } } },
      mcpServers: [
        { name: "gh", command: "gh-mcp", args: ["--api-key", SECRETS.mcpArg], env: { GITHUB_TOKEN: SECRETS.mcpEnv } },
        {
          name: "docs",
          type: "http",
          url: "http://127.0.0.1:9/mcp",
          headers: { Authorization: `Bearer ${SECRETS.header}`, "X-Other": SECRETS.otherHeader },
        },
      ],
    }),
  );
  return file;
}

describe("secrets an agent is given stay out of the trace and the logs", () => {
  it("an agent that echoes every secret it got: the trace (in a folder that did not exist) and logs/ hold none of them, files 0600", async () => {
    const traceDir = path.join(tempDir(), "not/yet");
    const trace = path.join(traceDir, "t.jsonl");
    const r = await runConch(["-p", "leak", "--agent", "hostile", "--trace", trace, "--output-format", "json"], {
      env: { CONCH_CONFIG: userConfig() },
    });
    const traced = readFileSync(trace, "utf8");
    expect(traced).toContain('"method":"session/new"');
    expect(traced).toContain("here they are");
    expect(statSync(trace).mode & 0o777).toBe(0o600);
    expect(statSync(traceDir).mode & 0o777).toBe(0o700);

    const logsDir = path.join(r.stateDir, "logs");
    const logs = readdirSync(logsDir).map((f) => path.join(logsDir, f));
    expect(logs).toHaveLength(1);
    const log = readFileSync(logs[0], "utf8");
    expect(log).toContain("GITHUB_TOKEN=");
    expect(statSync(logs[0]).mode & 0o777).toBe(0o600);

    // The stderr tail is shown and also recorded (session log, the JSON result): redacted too.
    const result = JSON.parse(r.stdout) as { stderrTail?: string };
    expect(result.stderrTail).toContain("GITHUB_TOKEN=[redacted]");
    for (const [where, text] of [
      ["trace", traced],
      ["agent log", log],
      ["stderr tail", result.stderrTail ?? ""],
      ["stderr", r.stderr],
    ] as const) {
      for (const secret of [...Object.values(SECRETS), "sk-ant-api03-LEAKEDLEAKEDLEAKED"]) {
        expect(text, `${secret} in the ${where}`).not.toContain(secret);
      }
    }
  });
});
