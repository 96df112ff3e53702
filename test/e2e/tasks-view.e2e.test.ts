import { afterEach, describe, expect, it } from "vitest";
import { CONCH, runConch, tempDir } from "../support/run-conch.js";
import { processes } from "../support/proc.js";
import { Screen, terminalEnv } from "./screen.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const running: Screen[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.kill();
});

/** conch with the demo agent in a real PTY (a background job that takes `backgroundMs`). */
async function startConch(stateDir: string, backgroundMs = 60_000): Promise<{ screen: Screen; cwd: string }> {
  const cwd = tempDir();
  const env = { ...terminalEnv(stateDir), CONCH_DEMO_BACKGROUND_MS: String(backgroundMs) };
  const screen = new Screen({ command: process.execPath, args: [CONCH, "--agent", "demo"], cwd, env, cols: 100, rows: 30 });
  running.push(screen);
  await screen.waitForText("message the agent");
  return { screen, cwd };
}

/** The live processes whose command line is `sleep <seconds>` (run directly or by a shell). */
const sleepers = (seconds: number): number[] => processes((p) => new RegExp(`sleep.${seconds}`).test(p.cmdline())).map((p) => p.pid);
const pidAlive = (pid: number) => processes((p) => p.pid === pid).length > 0;

describe("the tasks view (Ctrl-O, /tasks)", () => {
  it("lists your commands, running first; s asks, n keeps, s y stops one (its process gone), and it says how it ended", async () => {
    const { screen } = await startConch(tempDir("conch-state-"));
    await screen.submit("!echo quick-one");
    await screen.waitForText(/✓ ! echo quick-one/);
    await screen.submit("!sleep 317");
    await screen.waitForText(/! sleep 317 .*running/);
    for (let i = 0; i < 100 && sleepers(317).length === 0; i++) await sleep(50);
    const pids = sleepers(317);
    expect(pids.length).toBeGreaterThan(0);
    await screen.type("\x0f");
    await screen.waitForText("Tasks · 1 running · 1 ended", 10_000, "visible");
    await screen.waitForText(/› ◐ ! sleep 317 +running \d+s/, 10_000, "visible");
    await screen.waitForText("your command · conch stops it when you quit", 10_000, "visible");
    await screen.waitForText(/■ ! echo quick-one +exit 0/, 10_000, "visible");
    await screen.type("s");
    await screen.waitForText("stop your command? y stops it", 10_000, "visible");
    await screen.type("n");
    await screen.waitForGone("stop your command?");
    expect(pids.every(pidAlive)).toBe(true);
    // ↓ then s then y in one read: the keys act on what the one before them chose.
    await screen.type("\x1b[B\x1b[As");
    await screen.waitForText("stop your command? y stops it", 10_000, "visible");
    await screen.type("y");
    await screen.waitForText(/■ ! sleep 317 +signal SIGTERM \(stopped by you\)/, 10_000, "visible");
    await screen.waitForText("Tasks · 0 running · 2 ended", 10_000, "visible");
    for (let i = 0; i < 100 && pids.some(pidAlive); i++) await sleep(50);
    expect(pids.some(pidAlive)).toBe(false);
    // Esc closes the view; the input has the keys again.
    await screen.type("\x1b");
    await screen.waitForGone("Tasks ·");
    await screen.waitForText("message the agent", 10_000, "visible");
    // The scrollback says it too: its card shows only the signal.
    await screen.waitForText("`sleep 317` was stopped by you (signal SIGTERM)");
  });

  it("/tasks shows the agent's background job with the turn that started it; f finds its card; Enter on a running command of yours types into it", async () => {
    const { screen } = await startConch(tempDir("conch-state-"));
    await screen.submit("background");
    await screen.waitForText("This turn ends now");
    await screen.submit("!cat");
    await screen.waitForText(/! cat .*running/);
    await screen.submit("/tasks");
    await screen.waitForText("Tasks · 2 running", 10_000, "visible");
    await screen.waitForText(/\$ sleep 60; echo done +running/, 10_000, "visible");
    // The selected task (the first, running) opened up: who started it, and what conch does at quit.
    const rows = screen.visible();
    expect(rows).toMatch(/from “background”|your command/);
    // Select the job and find its card: the search view draws it.
    const jobFirst = rows.indexOf("sleep 60") < rows.indexOf("! cat");
    if (!jobFirst) await screen.type("\x1b[B");
    await screen.waitForText("from “background”", 10_000, "visible");
    await screen.type("f");
    // The card's hit is the one shown (the agent's answer names the command too, after it).
    await screen.waitForText(/search › sleep 60; echo done +1\/2/, 10_000, "visible");
    await screen.waitForText(/▸ tool +sleep 60; echo done/, 10_000, "visible");
    await screen.type("\x1b");
    await screen.waitForGone("search ›");
    // Back in the view, the running `cat` of yours takes keys once opened.
    await screen.type("\x0f");
    await screen.waitForText("Tasks · 2 running", 10_000, "visible");
    if (screen.visible().indexOf("! cat") > screen.visible().indexOf("sleep 60")) await screen.type("\x1b[B");
    await screen.waitForText(/› ◐ ! cat/, 10_000, "visible");
    await screen.type("\r");
    await screen.waitForText("keys go to the terminal", 10_000, "visible");
    await screen.type("echo-me-back\r");
    await screen.waitForText(/echo-me-back[\s\S]*echo-me-back/, 10_000, "visible");
    // Esc leaves the pane, back to the tasks view, where its last lines show.
    await screen.type("\x1b");
    await screen.waitForText(/│ echo-me-back/, 10_000, "visible");
    expect(screen.visible()).toContain("Tasks ·");
  });

  it("in conch attach --write the view lists the owner's tasks and stops one there", async () => {
    const stateDir = tempDir("conch-state-");
    const { screen: owner, cwd } = await startConch(stateDir);
    await owner.submit("!sleep 318");
    await owner.waitForText(/! sleep 318 .*running/);
    let id: string | undefined;
    for (let i = 0; i < 200 && !id; i++) {
      const r = await runConch(["sessions", "--json", "--all"], { stateDir });
      id = (JSON.parse(r.stdout || "[]") as { id: string }[])[0]?.id;
      if (!id) await sleep(50);
    }
    const other = new Screen({
      command: process.execPath,
      args: [CONCH, "attach", "--write", id!],
      cwd,
      env: terminalEnv(stateDir),
      cols: 100,
      rows: 30,
    });
    running.push(other);
    await other.waitForText("your keys act there");
    await other.type("\x0f");
    await other.waitForText(/› ◐ ! sleep 318 +running/, 10_000, "visible");
    await other.type("s");
    await other.waitForText("stop your command?", 10_000, "visible");
    await other.type("y");
    await other.waitForText(/■ ! sleep 318 +signal SIGTERM \(stopped by you\)/, 10_000, "visible");
    await owner.waitForText(/✗ ! sleep 318/);
  });
});
