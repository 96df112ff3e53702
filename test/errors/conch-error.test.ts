import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/agents/config-file.js";
import { USAGE, UsageError } from "../../src/cli/parse-args.js";
import { SessionBusyError, SessionNotFoundError } from "../../src/cli/session-setup.js";
import { ConchError, EXIT, exitCodeOf, exitCodeOfKind, messageOf, type ErrorKind } from "../../src/errors/conch-error.js";
import { AgentStartError } from "../../src/orchestrator/agent/agent-link.js";

const README = readFileSync(path.join(__dirname, "../../README.md"), "utf8");

/** The rows of the README's "Exit codes" table: code → meaning. */
function readmeExitCodes(): Map<number, string> {
  const section = README.slice(README.indexOf("### Exit codes"));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| code |")));
  const rows = [...table.matchAll(/^\| (\d+) \| (.*) \|$/gm)];
  return new Map(rows.map((m) => [Number(m[1]), m[2]]));
}

describe("the exit-code map", () => {
  it("has the codes the README's table documents, each once", () => {
    const documented = readmeExitCodes();
    expect([...documented.keys()].sort((a, b) => a - b)).toEqual(Object.values(EXIT).sort((a, b) => a - b));
    expect(new Set(Object.values(EXIT)).size).toBe(Object.values(EXIT).length);
  });

  it("keeps the numbers scripts rely on", () => {
    expect(EXIT).toEqual({
      ok: 0,
      failed: 1,
      usage: 2,
      timeout: 3,
      sessionNotFound: 4,
      permissionRefused: 5,
      refusal: 6,
      maxTokens: 7,
      notSaved: 8,
      interrupted: 130,
    });
  });

  it("is the one the usage text lists", () => {
    const listed = USAGE.slice(USAGE.indexOf("Exit codes"));
    for (const code of Object.values(EXIT)) expect(listed).toMatch(new RegExp(`\\b${code} [a-z]`));
  });

  it("maps each kind of failure to its code", () => {
    const expected: Record<ErrorKind, number> = {
      usage: 2,
      config: 2,
      "session-not-found": 4,
      "session-busy": 1,
      "agent-start": 1,
      "session-open": 1,
      "setting-refused": 1,
      "login-needed": 1,
      network: 1,
      timeout: 3,
    };
    for (const [kind, code] of Object.entries(expected)) expect(exitCodeOfKind(kind as ErrorKind), kind).toBe(code);
  });
});

describe("a failure a user can meet", () => {
  it("keeps its detail apart from its message, and knows its exit code", () => {
    const err = new ConchError("agent-start", "agent claude exited with code 1 before it answered initialize", "Error: no API key\n");
    expect(err.message).toBe("agent claude exited with code 1 before it answered initialize");
    expect(err.detail).toBe("Error: no API key\n");
    expect(err.exitCode).toBe(EXIT.failed);
    expect(err).toBeInstanceOf(Error);
  });

  it("is made where the failure happens, each with its kind", () => {
    expect(new UsageError("--cwd /x is not a directory")).toMatchObject({ kind: "usage", exitCode: 2 });
    expect(new ConfigError("config.json: not valid JSON")).toMatchObject({ kind: "config", exitCode: 2 });
    expect(new SessionNotFoundError("no session abc")).toMatchObject({ kind: "session-not-found", exitCode: 4 });
    expect(new SessionBusyError("session abc is open in another conch")).toMatchObject({ kind: "session-busy", exitCode: 1 });
    const start = new AgentStartError("agent x exited with code 1 before it answered initialize", "boom");
    expect(start).toMatchObject({ kind: "agent-start", exitCode: 1, detail: "boom" });
    expect(start.message).not.toContain("boom");
    expect(new AgentStartError("could not start agent x: ENOENT", "").detail).toBeUndefined();
  });

  it("anything else thrown is a runtime error, exit 1, shown by its message", () => {
    expect(exitCodeOf(new Error("EACCES: permission denied"))).toBe(EXIT.failed);
    expect(exitCodeOf("a string")).toBe(EXIT.failed);
    expect(messageOf(new Error("EACCES: permission denied"))).toBe("EACCES: permission denied");
    expect(messageOf("a string")).toBe("a string");
    expect(exitCodeOf(new UsageError("bad"))).toBe(EXIT.usage);
  });
});
