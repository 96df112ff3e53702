import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";

// What the screen says happened is what happened (issue 20): one error once, the model in use,
// agent-internal text folded, a session that ends as it was told to.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");

let screen: Screen | undefined;
afterEach(async () => {
  await screen?.kill();
  screen = undefined;
});

/** conch in a real terminal with `args`, its own project and state dirs, once its prompt is up. */
async function startConch(args: string[], env: NodeJS.ProcessEnv = {}, ready = "conch demo agent"): Promise<Screen> {
  const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
  const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
  screen = new Screen({
    command: process.execPath,
    args: [BIN, ...args],
    cwd: project,
    env: { ...terminalEnv(state), ...env },
    cols: 100,
    rows: 30,
  });
  await screen.waitForText(ready, 15_000);
  await screen.waitForText("message the agent", 15_000, "visible");
  return screen;
}

/** How many times `text` occurs in the whole buffer, scrollback included. */
const count = (s: Screen, text: string) => s.text().split(text).length - 1;

describe("one error, once", () => {
  it("an agent that crashes mid-turn: its exit and stderr tail are on the screen once, and the way out", async () => {
    const s = await startConch(["--agent", "demo"]);
    await s.submit("crash");
    await s.waitForText("/restart to start the agent again", 10_000, "visible");
    // The transcript is printed by then: the failure notice with its tail, after the text streamed.
    await s.waitForText(/cheese\.\.\.\s*\n\s*\n✗ agent exited with code 1\n {2}demo: simulated crash: out of cheese/);
    expect(count(s, "agent exited with code 1")).toBe(1);
    expect(count(s, "simulated crash: out of cheese")).toBe(1);
  });
});

describe("naming the agent", () => {
  it("--agent that is neither a preset nor on PATH: one line that lists the presets, exit 1, nothing started", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    screen = new Screen({
      command: process.execPath,
      args: [BIN, "--agent", "nosuchagent"],
      cwd: project,
      env: terminalEnv(state),
      cols: 100,
      rows: 30,
    });
    expect(await screen.exited).toBe(1);
    await screen.settle();
    // One line, wrapped by the terminal at its width.
    expect(screen.lines().join("")).toContain(
      '"nosuchagent" is neither an agent preset nor a program on PATH (presets: demo, claude, codex',
    );
    expect(screen.text()).not.toMatch(/ENOENT|code \?/);
  });
});

describe("a permission for a call the agent never announces", () => {
  it("once answered and the turn over, nothing is left running and the next message goes out at once", async () => {
    const s = await startConch(["--agent", "demo"]);
    await s.submit("hook");
    // The prompt itself, not only the status line: until it is drawn a key has nowhere to go.
    await s.waitForText("Allow once", 10_000, "visible");
    await s.waitForText("waiting for permission (1)", 10_000, "visible");
    await s.type("y");
    await s.waitForText("Done.");
    await s.submit("hello");
    // With the call held open this message would wait in the queue for the stall timeout (120 s).
    await s.waitForText("Type a keyword (or /keyword)", 10_000);
    expect(s.text()).not.toMatch(/background tasks? running/);
  });
});

describe("the model in use", () => {
  it("/model: the footer shows the model the agent now uses, and one line confirms the change", async () => {
    // The demo lists its models the unstable way too, as claude-agent-acp 0.23 does, and that list
    // keeps the model the session opened with: only the model option's answer says what changed.
    const s = await startConch(["--agent", "demo"]);
    await s.waitForText(/· Demo Fast · /, 5_000, "visible");
    await s.submit("/model demo-smart");
    await s.waitForText("model: Demo Smart (demo-smart)", 10_000);
    await s.waitForText(/· Demo Smart · /, 5_000, "visible");
    expect(s.visible()).not.toContain("Demo Fast");
  });
});
