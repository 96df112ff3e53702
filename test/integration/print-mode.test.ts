import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { replayAgent, ROOT, runConch, tempDir } from "../support/run-conch.js";

/** Pids of demo agent processes still alive (there must be none after conch exits). */
async function demoAgentPids(stateDir: string): Promise<string[]> {
  const r = await execa("sh", ["-c", `ps -eo pid,args | grep -F "${stateDir}" | grep -v grep || true`], { reject: false });
  return String(r.stdout).split("\n").filter(Boolean);
}

describe("conch -p against the demo agent as a real child process", () => {
  it("prints the streamed answer and exits 0", async () => {
    const r = await runConch(["-p", "markdown", "--agent", "demo"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("export function greet");
  });

  it("--output-format json prints one JSON object with stopReason end_turn", async () => {
    const r = await runConch(["-p", "hello", "--agent", "demo", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.stopReason).toBe("end_turn");
    expect(result.sessionId).toMatch(/demo/);
  });

  it("waits for a background command after end_turn and includes the text the agent sent after it", async () => {
    const r = await runConch(["-p", "background", "--agent", "demo", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.text).toContain("The background job finished");
    expect(result.toolCalls[0].status).toBe("completed");
  });

  it("stream-json prints one line per thing that happens and ends with the result", async () => {
    const r = await runConch(["-p", "plan", "--agent", "demo", "--output-format", "stream-json"]);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.some((l) => l.type === "plan")).toBe(true);
    expect(lines.at(-1).type).toBe("result");
    expect(lines.at(-1).exitCode).toBe(0);
  });

  it("writes a file through fs/write_text_file inside the cwd", async () => {
    const cwd = tempDir();
    const r = await runConch(["-p", "edit", "--agent", "demo", "--permissions", "approve-all"], { cwd });
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(cwd, "demo-notes.md"), "utf8").length).toBeGreaterThan(0);
  });

  it("runs a command through terminal/create in a real PTY", async () => {
    const r = await runConch(["-p", "run", "--agent", "demo", "--output-format", "json"]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.toolCalls.some((t: { kind: string; status: string }) => t.kind === "execute" && t.status === "completed")).toBe(true);
    expect(result.text).toContain("exit code 0");
  });

  it("a call known only from a permission request does not hold the turn open once the turn ended", async () => {
    // The demo's `hook` asks about a call it never announces and never closes; the stall timeout
    // would end the wait after 20 s with the call "stalled".
    const r = await runConch([
      "-p",
      "hook",
      "--agent",
      "demo",
      "--permissions",
      "approve-all",
      "--stall-timeout",
      "20",
      "--output-format",
      "json",
    ]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.text).toContain("You allowed `git status`");
    expect(result.toolCalls).toEqual([expect.objectContaining({ title: "git status", status: "unknown" })]);
  }, 60_000);

  it("refuses a permission by policy, reports it and exits 5", async () => {
    const r = await runConch(["-p", "permission", "--agent", "demo"]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain("permission refused by policy");
  });

  it("an agent that crashes mid-turn: exit 1, its stderr tail shown, no orphan process", async () => {
    const r = await runConch(["-p", "crash", "--agent", "demo"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("agent exited with code 1");
    expect(r.stderr).toContain("out of cheese");
    expect(await demoAgentPids(r.stateDir)).toEqual([]);
  });

  it("takes the prompt from stdin, and appends piped stdin to a -p prompt as context", async () => {
    const a = await runConch(["-p", "--agent", "demo", "--output-format", "json"], { input: "markdown" });
    expect(JSON.parse(a.stdout).stopReason).toBe("end_turn");
    const b = await runConch(["-p", "plan", "--agent", "demo", "--output-format", "stream-json"], { input: "extra context" });
    const sent = b.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((e) => e.type === "prompt");
    expect(sent.text).toBe("plan\n\nextra context");
  });

  it("maps stop reasons to exit codes: refusal 6, max tokens 7", async () => {
    expect((await runConch(["-p", "refuse", "--agent", "demo"])).code).toBe(6);
    expect((await runConch(["-p", "maxtokens", "--agent", "demo"])).code).toBe(7);
  });

  it("--timeout cancels the turn and exits 3, saying so in the seconds it was given", async () => {
    const r = await runConch(["-p", "slow", "--agent", "demo", "--timeout", "0.5"], { env: { CONCH_DEMO_DELAY_MS: "50" } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^conch: timed out after 0.5 s$/m);
  });

  it("--trace records every message both ways in the traces' format", async () => {
    const dir = tempDir();
    const file = path.join(dir, "t.jsonl");
    await runConch(["-p", "hello", "--agent", "demo", "--trace", file]);
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ dir: "note", text: "agent process 1 started" });
    expect(lines.some((l) => l.dir === "client" && l.msg.method === "initialize")).toBe(true);
    expect(lines.some((l) => l.dir === "agent" && l.msg.method === "session/update")).toBe(true);
    expect(lines.every((l) => typeof l.t === "number")).toBe(true);
  });

  it("an --agent that is neither a preset nor on PATH says so and lists the presets, without starting anything: exit 1", async () => {
    const r = await runConch(["-p", "hi", "--agent", "nosuchagent"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'conch: --agent nosuchagent: "nosuchagent" is neither an agent preset nor a program on PATH (presets: demo, claude, codex, gemini, opencode, goose; or give a command line or a ws:// URL)',
    );
  });

  it("an agent given as a command line is called by that line until it names itself, then by its agentInfo", async () => {
    const cwd = tempDir();
    const stateDir = tempDir("conch-state-");
    const demo = `${process.execPath} ${path.join(ROOT, "dist/demo/main.js")}`;
    const ok = await runConch(["-p", "hello", "--agent", demo, "--output-format", "json"], { cwd, stateDir });
    expect(JSON.parse(ok.stdout).agent).toBe("conch-demo");
    const listed = JSON.parse((await runConch(["sessions", "--json"], { cwd, stateDir })).stdout) as { agent: string }[];
    expect(listed.map((s) => s.agent)).toEqual(["conch-demo"]);
    // Before it names itself: by the script its interpreter runs (`node` alone says nothing).
    const dies = path.join(tempDir(), "my-agent.js");
    writeFileSync(dies, "process.exit(3)");
    const early = await runConch(["-p", "hi", "--agent", `${process.execPath} ${dies}`], { cwd, stateDir });
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(
      `conch: agent ${path.basename(process.execPath)} my-agent.js exited with code 3 before it answered initialize`,
    );
  });

  it("an agent command that does not exist fails with a clear message, exit 1", async () => {
    const r = await runConch(["-p", "hi", "--agent", "/nonexistent/agent-binary --acp"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/could not start agent|exited|ENOENT/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});

describe("conch -p against recorded real agents (trace replay)", () => {
  it("codex c1: prints the answer", async () => {
    const r = await runConch(["-p", "Say hello.", "--agent", replayAgent("codex-acp-0.16.0/c1.jsonl")]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Hello from the fake model");
  });

  it("codex 2.x c5-unfinished: the command the turn left running is last said to have ended with the agent, in text and json", async () => {
    const agent = replayAgent("codex-acp-2.6.0/c5-unfinished.jsonl");
    const text = await runConch(["-p", "Start the slow command and don't wait for it.", "--agent", agent]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stderr.split("\n").filter((l) => l.startsWith("[tool]"));
    expect(lines.at(-1)).toBe("[tool] sleep 1; echo tick; sleep 6; echo done (execute): ended_with_agent");
    const json = await runConch(["-p", "Start.", "--agent", agent, "--output-format", "json"]);
    expect(JSON.parse(json.stdout).toolCalls.map((t: { status: string }) => t.status)).toEqual(["ended_with_agent"]);
  });

  it("an unknown session/update kind is kept and shown, not rejected", async () => {
    const r = await runConch(["-p", "unknown", "--agent", "demo", "--output-format", "stream-json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("future_thing");
  });
});

describe("conch's command line", () => {
  it("--help and --version", async () => {
    const h = await runConch(["--help"]);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("--output-format");
    const v = await runConch(["--version"]);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("an unknown flag is one line that points to --help, not the whole help: exit 2", async () => {
    for (const args of [["--bogus"], ["-p", "hi", "--bogus"], ["-p", "--agent", "demo"]]) {
      const r = await runConch(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr.trimEnd().split("\n"), args.join(" ")).toHaveLength(1);
      expect(r.stderr).toMatch(/^conch: .*\(see conch --help\)$/);
      expect(r.stderr).not.toContain("Usage:");
    }
    expect((await runConch(["--bogus"])).stderr).toContain("--bogus");
  });

  it("a missing argument is a usage error", async () => {
    expect((await runConch(["--agent"])).code).toBe(2);
    expect((await runConch(["-p", "x", "--output-format", "xml"])).code).toBe(2);
  });

  it("-p with no prompt and nothing on stdin is a usage error", async () => {
    expect((await runConch(["-p", "--agent", "demo"])).code).toBe(2);
  });

  it("a --cwd that does not exist is refused", async () => {
    const r = await runConch(["-p", "hi", "--agent", "demo", "--cwd", "/no/such/dir"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not a directory");
  });

  it("an invalid config is a usage error for every command, said in one line: exit 2", async () => {
    const config = path.join(tempDir(), "config.json");
    writeFileSync(config, "{not json");
    for (const args of [["-p", "hi", "--agent", "demo"], ["sessions", "--agent", "demo"], ["agents"]]) {
      const r = await runConch(args, { env: { CONCH_CONFIG: config } });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr.startsWith(`conch: ${config}: not valid JSON: `)).toBe(true);
      expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
  });
});

describe("fs confinement, against the demo agent", () => {
  it("refuses a read outside the session's cwd with a clear JSON-RPC error", async () => {
    const r = await runConch(["-p", "outside", "--agent", "demo", "--output-format", "json"]);
    const result = JSON.parse(r.stdout);
    expect(result.text).toContain("The client refused to read");
    expect(result.text).toContain("outside the workspace");
    expect(result.toolCalls[0].status).toBe("failed");
  });
});

describe("print mode --mode and --model", () => {
  it("switches the mode before the prompt, and a refused mode is an error, exit 1", async () => {
    const r = await runConch(["-p", "edit", "--agent", "demo", "--mode", "plan", "--model", "demo-smart", "--output-format", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).text).toContain("Plan mode");
    const bad = await runConch(["-p", "edit", "--agent", "demo", "--mode", "bogus"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("could not switch to mode bogus");
  });

  it("--model goes through the model config option, not the unstable session/set_model", async () => {
    const trace = path.join(tempDir(), "trace.jsonl");
    const r = await runConch(["-p", "settings", "--agent", "demo", "--model", "demo-smart", "--trace", trace]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Model `demo-smart`");
    const methods = readFileSync(trace, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg?: { method?: string } }).msg?.method);
    expect(methods).toContain("session/set_config_option");
    expect(methods).not.toContain("session/set_model");
  });
});
