import { describe, expect, it } from "vitest";
import { parseCommandLine, UsageError } from "../../src/cli/parse-args.js";
import { runConch } from "../support/run-conch.js";

const CWD = "/home/u/project";
const parse = (argv: string[]) => parseCommandLine(argv, CWD);
const usageError = (argv: string[]) => {
  try {
    parse(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`${argv.join(" ")} parsed without a usage error`);
};

describe("the command line of a session (the UI and -p)", () => {
  it("reads the prompt from the positionals, joined by spaces, with defaults for the rest", () => {
    expect(parse(["fix", "the", "bug"])).toEqual({ kind: "interactive", prompt: "fix the bug", notify: true, cwd: CWD, continue: false });
    expect(parse(["-p", "hello"])).toEqual({ kind: "print", prompt: "hello", outputFormat: "text", cwd: CWD, continue: false });
  });

  it("takes everything after `--` as the prompt, dashes included", () => {
    expect(parse(["--", "-p", "hello"])).toMatchObject({ kind: "interactive", prompt: "-p hello" });
    expect(parse(["-p", "--", "--agent", "x"])).toMatchObject({ kind: "print", prompt: "--agent x", agent: undefined });
    // A subcommand's name after `--` is a prompt, as it is after -p.
    expect(parse(["-p", "sessions"])).toMatchObject({ kind: "print", prompt: "sessions" });
  });

  it("a repeated flag keeps its last value; --add-dir collects every one, resolved against the cwd", () => {
    expect(parse(["-p", "x", "--agent", "a", "--agent", "b"])).toMatchObject({ agent: "b" });
    expect(parse(["--agent=claude", "-a", "codex"])).toMatchObject({ agent: "codex" });
    expect(parse(["--add-dir", "lib", "--add-dir", "/srv/data"])).toMatchObject({ addDirs: [`${CWD}/lib`, "/srv/data"] });
    expect(parse(["--notify", "--no-notify"])).toMatchObject({ notify: false });
  });

  it("scales seconds to milliseconds and keeps milliseconds as given", () => {
    expect(
      parse([
        "-p",
        "x",
        "--timeout",
        "0.5",
        "--stall-timeout",
        "2",
        "--start-timeout",
        "0",
        "--quiet-ms",
        "250",
        "--background-quiet-ms",
        "0",
      ]),
    ).toMatchObject({ timeoutMs: 500, stallTimeoutMs: 2000, startTimeoutMs: 0, quietMs: 250, backgroundQuietMs: 0 });
  });

  it("--help and --version win over everything else that parses", () => {
    expect(parse(["-h", "-p", "x"])).toEqual({ kind: "help" });
    expect(parse(["--version", "--resume", "ab"])).toEqual({ kind: "version" });
    // An unknown flag is an error even next to --help: argv is checked whole first.
    expect(usageError(["--help", "--bogus"])).toContain("--bogus");
  });

  it("an unknown flag is a usage error naming it, without node's hint about positionals", () => {
    expect(usageError(["--bogus"])).toBe("Unknown option '--bogus'");
    expect(usageError(["-x", "hello"])).toBe("Unknown option '-x'");
  });

  it("a missing or unwanted flag argument is a usage error", () => {
    expect(usageError(["--agent"])).toMatch(/--agent <value>' argument missing/);
    expect(usageError(["--print=yes"])).toMatch(/does not take an argument/);
  });

  it("bad values are usage errors that say what was expected", () => {
    expect(usageError(["-p", "x", "--output-format", "xml"])).toBe('--output-format must be text, json or stream-json, got "xml"');
    expect(usageError(["-p", "x", "--permissions", "yolo"])).toBe(
      '--permissions must be one of ask, deny, approve-reads, approve-all, got "yolo"',
    );
    expect(usageError(["-p", "x", "--timeout", "soon"])).toBe('--timeout needs a number, got "soon"');
    expect(usageError(["-p", "x", "--timeout=-1"])).toBe('--timeout needs a number, got "-1"');
    expect(usageError(["--quiet-ms", "Infinity"])).toBe('--quiet-ms needs a number, got "Infinity"');
    expect(usageError(["--resume", " "])).toBe("--resume needs a session id");
  });

  it("conflicting options are usage errors", () => {
    expect(usageError(["-r", "ab", "-c"])).toBe("--resume and --continue cannot be used together");
    for (const flag of [
      ["--mode", "plan"],
      ["--model", "m"],
      ["--timeout", "3"],
      ["--output-format", "json"],
    ]) {
      expect(usageError(flag)).toMatch(/only applies to print mode \(-p\)/);
    }
    expect(usageError(["-p", "x", "--probe"])).toBe("--probe goes with `conch agents`");
    expect(usageError(["-p", "export", "--force"])).toBe("--output and --force go with `conch export`");
  });
});

describe("the sessions and doctor subcommands", () => {
  it("reads list (the default), delete and its alias rm", () => {
    expect(parse(["sessions"])).toEqual({
      kind: "sessions",
      action: "list",
      id: undefined,
      json: false,
      cwd: CWD,
      all: false,
      agent: undefined,
    });
    expect(parse(["sessions", "rm", "ab", "--json"])).toMatchObject({ action: "delete", id: "ab", json: true });
    expect(usageError(["sessions", "delete"])).toBe("sessions delete needs a session id");
    expect(usageError(["sessions", "frob"])).toBe("unknown sessions command: frob");
  });

  it("reads doctor with its agent", () => {
    expect(parse(["doctor", "--agent", "claude", "--json"])).toEqual({ kind: "doctor", agent: "claude", json: true });
  });
});

describe("usage errors at the command line", () => {
  it("exit 2 with the error in one line of stderr that points to --help", async () => {
    for (const argv of [
      ["-r", "ab", "-c"],
      ["--mode", "plan"],
      ["sessions", "frob"],
    ]) {
      const r = await runConch(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toBe(`conch: ${usageError(argv)} (see conch --help)`);
    }
  });
});

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

  it("reads conch attach <id>, and attach --write <id>", () => {
    expect(parseCommandLine(["attach", "01ab"])).toEqual({ kind: "attach", id: "01ab", write: false });
    expect(parseCommandLine(["attach", "--write", "01ab"])).toEqual({ kind: "attach", id: "01ab", write: true });
    expect(() => parseCommandLine(["attach"])).toThrow(/attach needs a session id/);
    expect(() => parseCommandLine(["--write"])).toThrow(/--write goes with `conch attach`/);
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

  it("reads conch agents --registry [--refresh], and refuses either anywhere else", () => {
    expect(parseCommandLine(["agents", "--registry"])).toMatchObject({ kind: "agents", registry: true, refresh: false });
    expect(parseCommandLine(["agents", "--registry", "--refresh", "--json"])).toMatchObject({ registry: true, refresh: true, json: true });
    expect(() => parseCommandLine(["agents", "--refresh"])).toThrow("--refresh goes with `conch agents --registry`");
    expect(() => parseCommandLine(["--registry"])).toThrow("--registry and --refresh go with `conch agents`");
    expect(() => parseCommandLine(["agents", "--registry", "--probe"])).toThrow(/to probe one of its agents: conch agents --probe <id>/);
  });
});
