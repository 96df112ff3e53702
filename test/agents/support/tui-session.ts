/**
 * conch's TUI next to a real agent: with-agent holds a shell that writes its environment (the
 * agent's command line, the project, the isolated home and the fake model's address) to a file and
 * waits; the test starts conch in a real PTY with that environment (tests read the screen through
 * @xterm/headless, `test/e2e/screen.ts`) and drives it as a person would. Every conch run records
 * its `--trace`, so a test can hold the screen against the wire. Stopping lets the shell end, and
 * with-agent then stops whatever of the run is still alive.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { Screen } from "../../e2e/screen.js";
import { CONCH, ROOT, WITH_AGENT, sq, type AgentName } from "./real-agents.js";

/** The size every TUI scenario runs at, as a person's terminal. */
export const TUI_COLS = 120;
export const TUI_ROWS = 40;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One with-agent run holding the agent's environment for TUI runs of conch. */
export interface AgentEnv {
  env: Record<string, string>;
  /** The project dir (the session's cwd). */
  project: string;
  /** Where this scenario's traces and conch state go. */
  dir: string;
  latencyMs: number;
  stop(): Promise<void>;
}

/** Starts with-agent for `script` and waits for its environment. */
export async function agentEnv(agent: AgentName, script: string, latencyMs: number): Promise<AgentEnv> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "conch-tui-agents-"));
  const envFile = path.join(dir, "env.json");
  const stopFile = path.join(dir, "stop");
  const hold = `node -e 'require("fs").writeFileSync(process.argv[1], JSON.stringify(process.env))' ${sq(envFile)}; while [ ! -e ${sq(stopFile)} ]; do sleep 0.2; done`;
  const child: ResultPromise = execa(WITH_AGENT, [agent, script, hold], {
    reject: false,
    stdin: "ignore",
    cwd: ROOT,
    env: { FAKE_MODEL_LATENCY_MS: String(latencyMs), WITH_AGENT_QUIET: "1" },
    cleanup: true,
  });
  const deadline = Date.now() + 60_000;
  while (!existsSync(envFile)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`with-agent ${agent} ${script} did not start: ${(await child).stderr}`);
    await sleep(100);
  }
  await sleep(50);
  const env = JSON.parse(readFileSync(envFile, "utf8")) as Record<string, string>;
  return {
    env,
    project: env.PROJECT,
    dir,
    latencyMs,
    async stop() {
      writeFileSync(stopFile, "");
      await Promise.race([child, sleep(30_000)]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A conch TUI in a PTY, started in the agent's environment. */
export interface TuiRun {
  screen: Screen;
  /** The JSON-RPC lines of this run's `--trace` so far. */
  wire(): { dir: string; msg: Record<string, any> }[];
  /** Ctrl-C twice, then waits for conch to exit: its exit code. */
  quit(): Promise<number>;
}

/** Starts `conch --agent "$AGENT_CMD" <args>` in the TUI. `agentArg` replaces the agent (a registry id). */
export function startConch(
  a: AgentEnv,
  name: string,
  args: string[] = [],
  opts: { agentArg?: string; env?: Record<string, string> } = {},
): TuiRun {
  const trace = path.join(a.dir, `${name}.trace`);
  const env: Record<string, string> = { ...a.env, TERM: "xterm-256color", CONCH_STATE_DIR: path.join(a.dir, "state"), ...opts.env };
  for (const k of ["CI", "CONTINUOUS_INTEGRATION", "NO_COLOR"]) delete env[k];
  const screen = new Screen({
    command: process.execPath,
    args: [CONCH, "--agent", opts.agentArg ?? a.env.AGENT_CMD, "--trace", trace, ...args],
    cwd: a.project,
    env,
    cols: TUI_COLS,
    rows: TUI_ROWS,
  });
  return {
    screen,
    wire: () =>
      existsSync(trace)
        ? readFileSync(trace, "utf8")
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l))
            .filter((l) => l.dir === "client" || l.dir === "agent")
        : [],
    async quit() {
      if (screen.exitCode !== null) return screen.exitCode;
      // As a person does: Ctrl-C, the hint that a second one quits, Ctrl-C.
      await screen.type("\x03");
      await screen.waitForText("press Ctrl-C again to quit", 10_000, "visible");
      await screen.type("\x03");
      const code = await Promise.race([screen.exited, sleep(20_000).then(() => null)]);
      if (code === null) {
        await screen.kill();
        throw new Error(`conch did not quit on Ctrl-C twice; the screen shows:\n${screen.visible()}`);
      }
      return code;
    },
  };
}

/** The input line when no turn runs (while one runs it offers to queue instead). */
export const IDLE_INPUT = "message the agent · / commands";

/** Types a message and sends it. */
export async function send(run: TuiRun, text: string): Promise<void> {
  await run.screen.type(text);
  await run.screen.type("\r");
}

/** Waits for `text` in the transcript, then for the session to be idle again. */
export async function waitForAnswer(run: TuiRun, text: string | RegExp, timeoutMs: number): Promise<void> {
  await run.screen.waitForText(text, timeoutMs);
  await run.screen.waitForText(IDLE_INPUT, timeoutMs, "visible");
}

/** The agent's `session/update` payloads of a run's trace (the replay before the load response marked `history`). */
export function traceUpdates(run: TuiRun): { update: Record<string, any>; history: boolean }[] {
  const wire = run.wire();
  const loadId = wire.find((l) => l.dir === "client" && l.msg.method === "session/load")?.msg.id;
  const loaded = loadId === undefined ? -1 : wire.findIndex((l) => l.dir === "agent" && l.msg.id === loadId && !l.msg.method);
  return wire
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.dir === "agent" && l.msg.method === "session/update")
    .map(({ l, i }) => ({ update: l.msg.params.update, history: i < loaded }));
}

/** The screen's lines that show a tool call's card head (`✓ $ echo hello`), trimmed. */
export function cardLines(screen: Screen, title: string): string[] {
  return screen
    .lines()
    .map((l) => l.trim())
    .filter((l) => l.includes(`$ ${title}`) && !l.startsWith("╭"));
}

/** Keeps a failing scenario's screen in the assertion message. */
export function shown(run: TuiRun): string {
  return `the screen shows:\n${run.screen.text().split("\n").slice(-60).join("\n")}`;
}
