import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";
import { processesIn } from "../support/proc.js";
import { pollFor } from "../support/wait.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");
const DEMO = path.join(ROOT, "dist/demo/main.js");

/** The prompts that went to the agent, in order, read from conch's --trace file (while conch writes it: only whole lines). */
function promptsSent(trace: string): string[] {
  if (!existsSync(trace)) return [];
  return readFileSync(trace, "utf8")
    .split("\n")
    .slice(0, -1)
    .map((line) => JSON.parse(line) as { dir: string; msg?: { method?: string; params?: { prompt?: { type: string; text?: string }[] } } })
    .filter((entry) => entry.dir === "client" && entry.msg?.method === "session/prompt")
    .map((entry) => (entry.msg!.params!.prompt ?? []).map((block) => block.text ?? "").join(""));
}

/** Polls `get` until it gives a value (a trace file and /proc send no events). */
const until = <T>(what: string, get: () => T | undefined, ms = 15_000) => pollFor(get, what, { ms, every: 50 });

let screen: Screen | undefined;
afterEach(async () => {
  await screen?.kill();
  screen = undefined;
});

function launch(agent = "demo"): { screen: Screen; trace: string; project: string } {
  const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-startup-"));
  const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
  const trace = path.join(state, "trace.jsonl");
  screen = new Screen({
    command: process.execPath,
    args: [BIN, "--agent", agent, "--trace", trace],
    cwd: project,
    env: terminalEnv(state),
    cols: 100,
    rows: 30,
  });
  return { screen, trace, project };
}

describe("typing while conch starts", () => {
  it("sends every message typed from the first moment, each exactly once and in order", async () => {
    const { screen, trace } = launch();
    // Before conch has even taken the terminal over (the kernel still edits lines), then while it loads.
    screen.proc.write("help\r");
    await screen.waitForText("starting demo…", 15_000);
    screen.proc.write("refuse\rmarkdown");
    screen.proc.write("\r");
    const sent = await until("three prompts", () => {
      const prompts = promptsSent(trace);
      return prompts.length >= 3 ? prompts : undefined;
    });
    expect(sent).toEqual(["help", "refuse", "markdown"]);
    await screen.waitForText("› markdown");
    await screen.waitForText("message the agent", 10_000, "visible");
    expect(promptsSent(trace)).toEqual(["help", "refuse", "markdown"]);
    for (const text of ["› help", "› refuse", "› markdown"])
      expect(
        screen
          .text()
          .split("\n")
          .filter((l) => l.trim() === text),
      ).toHaveLength(1);
  });

  it("keeps a paste made during startup a paste: its lines become one message", async () => {
    const { screen, trace } = launch();
    await screen.waitForText("starting demo…", 15_000);
    screen.proc.write("\x1b[200~first line\rsecond line\x1b[201~\r");
    const sent = await until("the prompt", () => (promptsSent(trace).length ? promptsSent(trace) : undefined));
    expect(sent).toEqual(["first line\nsecond line"]);
  });

  it("Ctrl-C while it starts quits, and leaves no agent behind", async () => {
    const { screen, project } = launch();
    await screen.waitForText("starting demo…", 15_000);
    screen.proc.write("\x03");
    // Before the UI is up one Ctrl-C quits (exit 130); if the UI came up first, it wants a second.
    const quitAtOnce = await Promise.race([screen.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 5000))]);
    if (!quitAtOnce) screen.proc.write("\x03");
    expect(await screen.exited).toBe(quitAtOnce ? 130 : 0);
    await until("the agent to be gone", () => (processesIn(project).length === 0 ? true : undefined), 5000);
  });
});

describe("an agent that does not start", () => {
  it("shows why with its stderr, keeps what was typed, and /restart starts it again", async () => {
    // Dies before initialize the first time (no key yet), starts the demo agent the second.
    const marker = path.join(mkdtempSync(path.join(tmpdir(), "conch-e2e-key-")), "key");
    const agent = `sh -c "if [ -e ${marker} ]; then exec ${process.execPath} ${DEMO}; fi; touch ${marker}; echo 'error: no API key' >&2; exit 1"`;
    const { screen, trace } = launch(agent);
    await screen.waitForText("✗ agent sh exited with code 1 before it answered initialize", 15_000, "visible");
    await screen.waitForText("error: no API key", 5_000, "visible");
    await screen.waitForText("/restart to try again", 5_000, "visible");
    await screen.submit("help");
    await screen.waitForText("queued: sent when the session opens", 5_000, "visible");
    await screen.submit("/restart");
    await screen.waitForText("message the agent", 15_000, "visible");
    expect(screen.visible()).not.toContain("before it answered initialize");
    await until("the queued message", () => (promptsSent(trace).length ? promptsSent(trace) : undefined));
    expect(promptsSent(trace)).toEqual(["help"]);
  });
});
