import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../src/cli/parse-args.js";

describe("the command line of export, attach and agents --probe", () => {
  it("reads conch export <id> with --output/-o and --force", () => {
    expect(parseCommandLine(["export", "01ab"])).toEqual({ kind: "export", id: "01ab", output: undefined, force: false });
    expect(parseCommandLine(["export", "01ab", "-o", "t.md", "--force"])).toEqual({
      kind: "export",
      id: "01ab",
      output: "t.md",
      force: true,
    });
    expect(() => parseCommandLine(["export"])).toThrow(UsageError);
    expect(() => parseCommandLine(["export", "a", "b"])).toThrow(/unexpected argument: b/);
    expect(() => parseCommandLine(["-o", "t.md", "hello"])).toThrow(/--output and --force go with `conch export`/);
  });

  it("reads conch attach <id>", () => {
    expect(parseCommandLine(["attach", "01ab"])).toEqual({ kind: "attach", id: "01ab" });
    expect(() => parseCommandLine(["attach"])).toThrow(/attach needs a session id/);
  });

  it("reads conch agents --probe with a name or --agent <command>, and plain conch agents as before", () => {
    expect(parseCommandLine(["agents"])).toEqual({ kind: "agents", json: false, probe: false, name: undefined, agent: undefined });
    expect(parseCommandLine(["agents", "--probe", "claude", "--json"])).toEqual({
      kind: "agents",
      json: true,
      probe: true,
      name: "claude",
      agent: undefined,
    });
    expect(parseCommandLine(["agents", "--probe", "--agent", "my-agent --acp"])).toEqual({
      kind: "agents",
      json: false,
      probe: true,
      name: undefined,
      agent: "my-agent --acp",
    });
    expect(() => parseCommandLine(["agents", "claude"])).toThrow(/to probe one agent: conch agents --probe claude/);
    expect(() => parseCommandLine(["agents", "--probe", "claude", "--agent", "x"])).toThrow(/name the agent to probe once/);
    expect(() => parseCommandLine(["--probe"])).toThrow(/--probe goes with `conch agents`/);
  });
});
