import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { killMarked, markedProcesses, newMarker } from "../support/marked-processes.js";
import { isCiMarker } from "../support/ci-markers.js";
import { waitUntil } from "../support/wait.js";
import { alive, Screen } from "./screen.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");
const DEMO = path.join(ROOT, "dist/demo/main.js");
const HOSTILE = path.join(ROOT, "test/fixtures/hostile-agent.mjs");

const tmp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));

/** A person's terminal: no CI markers, private state and config dirs, a fast demo. */
function terminalEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (isCiMarker(k) || k === "NO_COLOR") continue;
    env[k] = v;
  }
  const state = tmp("conch-e2e-state-");
  return {
    ...env,
    TERM: "xterm-256color",
    CONCH_STATE_DIR: state,
    XDG_STATE_HOME: state,
    XDG_CONFIG_HOME: tmp("conch-e2e-config-"),
    CONCH_DEMO_STATE: path.join(state, "demo"),
    CONCH_DEMO_DELAY_MS: "0",
  };
}

const screens: Screen[] = [];
const markers: string[] = [];
afterEach(async () => {
  for (const s of screens.splice(0)) await s.kill();
  for (const m of markers.splice(0)) killMarked(m);
});

function start(args: string[], cwd: string, env: NodeJS.ProcessEnv): Screen {
  const screen = new Screen({ command: process.execPath, args: [BIN, ...args], cwd, env, cols: 100, rows: 30 });
  screens.push(screen);
  return screen;
}

interface TraceLine {
  dir: string;
  msg?: { id?: number | string; method?: string; result?: { outcome?: { outcome: string } } };
}

/** What conch sent the agent: its answer to the permission request, and whether it sent session/cancel. */
function sentToAgent(traceFile: string): { permissionAnswer?: string; cancelled: boolean } {
  const lines = readFileSync(traceFile, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as TraceLine);
  const request = lines.find((l) => l.dir === "agent" && l.msg?.method === "session/request_permission");
  const answer = lines.find((l) => l.dir === "client" && request && l.msg?.id === request.msg?.id && l.msg?.result);
  return {
    permissionAnswer: answer?.msg?.result?.outcome?.outcome,
    cancelled: lines.some((l) => l.dir === "client" && l.msg?.method === "session/cancel"),
  };
}

const exitOf = (screen: Screen) => Promise.race([screen.exited, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);

describe("every way out of the TUI answers what is pending, cancels the turn and stops the agent", () => {
  it("kill -TERM with a permission pending: answered cancelled, session/cancel sent, no process left, exit 130", async () => {
    const trace = path.join(tmp("conch-e2e-trace-"), "t.jsonl");
    const screen = start(["--agent", "demo", "--trace", trace], tmp("conch-e2e-project-"), terminalEnv());
    await screen.waitForText("conch demo agent", 15_000, "visible");
    await screen.submit("permission");
    await screen.waitForText("Allow once", 10_000, "visible");
    const started = screen.descendants();
    expect(started.length).toBeGreaterThan(0);
    process.kill(screen.proc.pid, "SIGTERM");
    // Ended by a signal: 130, as print mode does (quitting with the keys is 0).
    expect(await exitOf(screen)).toBe(130);
    expect(sentToAgent(trace)).toEqual({ permissionAnswer: "cancelled", cancelled: true });
    // Its last frame is the one /quit leaves: no prompt still asking, no spinner still waiting on it.
    await screen.settle();
    expect(screen.visible()).not.toMatch(/Allow once|waiting for permission|message the agent/);
    await waitUntil(() => started.every((pid) => !alive(pid)), "every process conch started is gone", 5_000);
  });

  it("/quit with a permission pending: the last frame says the call was cancelled and the turn interrupted, not still awaiting permission", async () => {
    const trace = path.join(tmp("conch-e2e-trace-"), "t.jsonl");
    const screen = start(["--agent", "demo", "--trace", trace], tmp("conch-e2e-project-"), terminalEnv());
    await screen.waitForText("conch demo agent", 15_000, "visible");
    await screen.submit("permission");
    await screen.waitForText("Allow once", 10_000, "visible");
    await screen.waitForText("awaiting permission", 10_000, "visible");
    // Tab leaves the prompt for the input, where /quit is typed.
    await screen.type("\t");
    await screen.submit("/quit");
    expect(await exitOf(screen)).toBe(0);
    expect(sentToAgent(trace)).toEqual({ permissionAnswer: "cancelled", cancelled: true });
    await screen.settle();
    const text = screen.text();
    expect(text).not.toMatch(/awaiting permission|Allow once|waiting for permission/);
    expect(text).toContain("permission cancelled");
    expect(text).toContain("⊘ interrupted");
  });

  it("kill -INT with a permission pending, the agent ignoring SIGTERM: answered, cancelled, the agent gone, exit 130", async () => {
    const m = newMarker();
    markers.push(m);
    const trace = path.join(tmp("conch-e2e-trace-"), "t.jsonl");
    const screen = start(
      ["--agent", `${process.execPath} ${HOSTILE} --permission --ignore-term --daemons ${m}`, "--trace", trace],
      tmp("conch-e2e-project-"),
      terminalEnv(),
    );
    // The status bar names the agent once it has answered initialize (before, the instant prompt shows).
    await screen.waitForText(/^hostile · /m, 15_000, "visible");
    await screen.submit("go");
    await screen.waitForText("Delete everything", 10_000, "visible");
    await waitUntil(() => markedProcesses(m).length >= 2, "the agent's daemon and grandchild run");
    process.kill(screen.proc.pid, "SIGINT");
    expect(await exitOf(screen)).toBe(130);
    expect(sentToAgent(trace)).toEqual({ permissionAnswer: "cancelled", cancelled: true });
    await waitUntil(() => markedProcesses(m).length === 0, "nothing the agent started is left", 5_000);
  });

  it("Ctrl-C twice with a permission pending: the same", async () => {
    const trace = path.join(tmp("conch-e2e-trace-"), "t.jsonl");
    const screen = start(["--agent", "demo", "--trace", trace], tmp("conch-e2e-project-"), terminalEnv());
    await screen.waitForText("conch demo agent", 15_000, "visible");
    await screen.submit("permission");
    await screen.waitForText("Allow once", 10_000, "visible");
    await screen.type("\x03");
    await screen.waitForText("press Ctrl-C again to quit", 5_000, "visible");
    await screen.type("\x03");
    expect(await exitOf(screen)).toBe(0);
    expect(sentToAgent(trace)).toEqual({ permissionAnswer: "cancelled", cancelled: true });
  });
});

describe("workspace trust in the TUI", () => {
  it("asks before a cloned repo's .conch.json runs anything, and remembers a trusted folder", async () => {
    const project = tmp("conch-e2e-clone-");
    mkdirSync(path.join(project, ".git"));
    const marker = path.join(project, "PWNED");
    // The repo redefines the `demo` preset: it would run its own command instead.
    writeFileSync(
      path.join(project, ".conch.json"),
      JSON.stringify({ agents: { demo: { command: "sh", args: ["-c", `touch ${marker}; exec ${process.execPath} ${DEMO}`] } } }),
    );
    const env = terminalEnv();

    const first = start(["--agent", "demo"], project, env);
    await first.waitForText("is in a folder you have not trusted yet", 15_000);
    expect(first.text()).toContain(`agents.demo  runs sh -c "touch ${marker}`);
    await first.submit("s");
    await first.waitForText("conch demo agent", 15_000, "visible");
    expect(existsSync(marker)).toBe(false);
    await first.type("\x03");
    await first.type("\x03");
    expect(await exitOf(first)).toBe(0);

    const second = start(["--agent", "demo"], project, env);
    await second.waitForText("is in a folder you have not trusted yet", 15_000);
    await second.submit("t");
    await second.waitForText("conch demo agent", 15_000, "visible");
    expect(existsSync(marker)).toBe(true);
    await second.type("\x03");
    await second.type("\x03");
    expect(await exitOf(second)).toBe(0);

    const third = start(["--agent", "demo"], project, env);
    await third.waitForText("conch demo agent", 15_000, "visible");
    expect(third.text()).not.toContain("Trust this folder?");
  });

  it("quitting at the question runs nothing", async () => {
    const project = tmp("conch-e2e-clone-");
    mkdirSync(path.join(project, ".git"));
    const marker = path.join(project, "PWNED");
    writeFileSync(path.join(project, ".conch.json"), JSON.stringify({ defaultAgent: `sh -c "touch ${marker}"` }));
    const screen = start([], project, terminalEnv());
    await screen.waitForText("Trust this folder?", 15_000);
    await screen.submit("q");
    expect(await exitOf(screen)).toBe(2);
    expect(screen.text()).toContain("nothing was run");
    expect(existsSync(marker)).toBe(false);
  });
});

describe("agent-controlled text never reaches the terminal raw", () => {
  it("escape sequences in the agent's name, titles, tool output, plan, text and stderr are shown as marks, and none acts on the terminal", async () => {
    const project = tmp("conch-e2e-escapes-");
    const screen = start(["--agent", `${process.execPath} ${HOSTILE} --escapes`], project, terminalEnv());
    await screen.waitForText("›", 15_000);
    await screen.submit("go");
    await screen.waitForText("message ␛", 15_000);
    await screen.settle();
    expect(screen.clipboard).toEqual([]);
    expect(screen.titles).toEqual([]);
    expect(screen.raw).not.toContain("\u001b]52");
    expect(screen.raw).not.toContain("PWNED\u0007");
    expect(screen.raw).not.toContain("\u009b");
    // What was there is shown, marked.
    expect(screen.text()).toContain("ls␛");
    expect(screen.text()).toContain("step␛");
    // Quitting stops the agent, though it ignores the end of its stdin.
    const agent = screen.descendants();
    expect(agent.length).toBeGreaterThan(0);
    await screen.type("\x03");
    await screen.type("\x03");
    expect(await Promise.race([screen.exited, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))])).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(agent.filter(alive)).toEqual([]);
  });

  it("print mode to a terminal makes the answer and its stderr lines safe", async () => {
    const project = tmp("conch-e2e-escapes-");
    const screen = start(["-p", "go", "--agent", `${process.execPath} ${HOSTILE} --escapes`], project, terminalEnv());
    expect(await screen.exited).toBe(0);
    await screen.settle();
    expect(screen.clipboard).toEqual([]);
    expect(screen.titles).toEqual([]);
    expect(screen.raw).not.toContain("\u001b]52");
    expect(screen.text()).toContain("message ␛");
  });
});
