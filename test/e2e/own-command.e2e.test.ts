import { readFileSync } from "node:fs";
import { execa } from "execa";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { sessionLogPath } from "../../src/store/state-dir.js";
import { CONCH, runConch, tempDir } from "../support/run-conch.js";
import { Screen, terminalEnv } from "./screen.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const running: Screen[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.kill();
});

/** conch with the demo agent in a real PTY, and the id of its session once it is in the index. */
async function startConch(stateDir: string, cwd = tempDir(), cols = 100, rows = 30): Promise<{ screen: Screen; id: string; cwd: string }> {
  const screen = new Screen({ command: process.execPath, args: [CONCH, "--agent", "demo"], cwd, env: terminalEnv(stateDir), cols, rows });
  running.push(screen);
  await screen.waitForText("message the agent");
  for (let i = 0; i < 200; i++) {
    const r = await runConch(["sessions", "--json", "--all"], { stateDir });
    const list = JSON.parse(r.stdout || "[]") as { id: string }[];
    if (list.length) return { screen, id: list[0].id, cwd };
    await sleep(50);
  }
  throw new Error("the session never reached the index");
}

const logOf = (id: string, stateDir: string): SessionEvent[] =>
  readFileSync(sessionLogPath(id, stateDir), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{") && !l.startsWith('{"conch_log"'))
    .map((l) => JSON.parse(l) as SessionEvent);

/** The first prompt sent, from the log, which is written as the session goes: wait for its line. */
async function sentPrompt(id: string, stateDir: string): Promise<SessionEvent | undefined> {
  for (let i = 0; i < 100; i++) {
    const sent = logOf(id, stateDir).find((e) => e.type === "prompt_sent");
    if (sent) return sent;
    await sleep(50);
  }
  return undefined;
}

describe("the user's own command (!cmd)", () => {
  it("runs in a pane of its own, marked as the user's, shows its output and exit; the agent is not told", async () => {
    const stateDir = tempDir("conch-state-");
    const { screen, id } = await startConch(stateDir);
    await screen.submit("!printf 'first line\\nsecond line\\n'; sleep 1; echo third line; exit 3");
    await screen.waitForText(/! printf .* running/);
    await screen.waitForText("third line");
    await screen.waitForText(/✗ ! printf .* failed/);
    await screen.waitForText("exit 3");
    expect(screen.text()).toContain("first line");
    const log = logOf(id, stateDir);
    expect(log.some((e) => e.type === "terminal_started" && e.by === "user")).toBe(true);
    expect(log.some((e) => e.type === "prompt_sent")).toBe(false);
  });

  it("!! attaches the output to the next message, as a resource the agent gets with it", async () => {
    const stateDir = tempDir("conch-state-");
    const { screen, id } = await startConch(stateDir);
    await screen.submit("!!echo attached-output-42");
    await screen.waitForText("[output of !echo attached-output-42]");
    await screen.waitForText(/✓ ! echo attached-output-42/);
    await screen.submit("what does this say?");
    await screen.waitForText("› [output of !echo attached-output-42] what does this say?");
    const sent = await sentPrompt(id, stateDir);
    expect(sent?.type === "prompt_sent" && JSON.stringify(sent.prompt)).toContain("attached-output-42\\n[exit 0]");
  });
  it("a on your finished command in the tasks view attaches its output to the next message, as !! does", async () => {
    const stateDir = tempDir("conch-state-");
    const { screen, id } = await startConch(stateDir);
    await screen.submit("!echo later-output-77");
    await screen.waitForText(/✓ ! echo later-output-77/);
    await screen.type("\x0f");
    await screen.waitForText("a attach its output");
    await screen.type("a");
    await screen.waitForText("› [output of !echo later-output-77]");
    await screen.type("what is it?\r");
    const sent = await sentPrompt(id, stateDir);
    expect(sent?.type === "prompt_sent" && JSON.stringify(sent.prompt)).toContain("later-output-77\\n[exit 0]");
  });
});

describe("conch attach --write: a second terminal acts in a running session", () => {
  it("answers a permission from the second terminal; the agent gets it and the owner's screen says who answered", async () => {
    const stateDir = tempDir("conch-state-");
    const owner = await startConch(stateDir);
    await owner.screen.submit("permission");
    await owner.screen.waitForText("Allow once");
    const other = new Screen({
      command: process.execPath,
      args: [CONCH, "attach", "--write", owner.id],
      cwd: owner.cwd,
      env: terminalEnv(stateDir),
      cols: 100,
      rows: 30,
    });
    running.push(other);
    await other.waitForText("your keys act there");
    await other.waitForText("Allow once");
    await other.type("y");
    await owner.screen.waitForText(/another terminal acts here \(conch pid \d+, attach --write\) · it answered allow once/);
    await owner.screen.waitForText("allowed once from another terminal");
    await owner.screen.waitForText("you chose Allow once");
    await other.waitForText("you chose Allow once");
    // A second writer is refused while one is attached.
    const third = await runConch(["attach", "--write", owner.id], { stateDir });
    expect(third.code).not.toBe(0);
    // Quitting the second terminal leaves the session running in the first.
    await other.type("\x03");
    await other.type("\x03");
    expect(await other.exited).toBe(0);
    await owner.screen.waitForGone("another terminal acts here");
  });

  it("attaches to a -p run too: Esc in the second terminal cancels its turn, and the run ends cancelled", async () => {
    const stateDir = tempDir("conch-state-");
    const cwd = tempDir();
    const run = execa(process.execPath, [CONCH, "-p", "slow", "--agent", "demo", "--output-format", "json"], {
      cwd,
      reject: false,
      stdin: "ignore",
      env: { ...terminalEnv(stateDir), NO_COLOR: "1" } as Record<string, string>,
    });
    let id: string | undefined;
    for (let i = 0; i < 200 && !id; i++) {
      const r = await runConch(["sessions", "--json", "--all"], { stateDir });
      id = (JSON.parse(r.stdout || "[]") as { id: string }[])[0]?.id;
      if (!id) await sleep(50);
    }
    expect(id).toBeDefined();
    const other = new Screen({ command: process.execPath, args: [CONCH, "attach", "--write", id!], cwd, env: terminalEnv(stateDir) });
    running.push(other);
    await other.waitForText("This answer is deliberately slow");
    await other.type("\x1b");
    const done = await run;
    expect(JSON.parse(done.stdout).stopReason).toBe("cancelled");
    expect(done.exitCode).toBe(130);
    expect(done.stdout).not.toContain("another terminal");
  });
});
