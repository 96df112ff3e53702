import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { waitUntil } from "../support/wait.js";
import { Screen, terminalEnv } from "./screen.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");

const screens: Screen[] = [];
afterEach(async () => {
  for (const s of screens.splice(0)) await s.kill();
});

/** conch in a terminal that says who it is in the environment, with the demo agent's edit scenario run to the end. */
async function runEdit(env: NodeJS.ProcessEnv): Promise<Screen> {
  const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-features-"));
  const screen = new Screen({
    command: process.execPath,
    args: [BIN, "--agent", "demo", "--permissions", "approve-all"],
    cwd: project,
    env,
    cols: 100,
    rows: 30,
  });
  screens.push(screen);
  await screen.waitForText("message the agent", 15_000);
  await screen.submit("edit");
  await screen.waitForText("Done: demo-notes.md has a new line", 15_000);
  await screen.submit("hello");
  await screen.waitForText("Type tour", 15_000);
  await screen.settle();
  return screen;
}

const stateDir = () => mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));

describe("terminal-native structure, only for terminals that take it", () => {
  it("a terminal known to take them gets prompt marks (OSC 133), file links (OSC 8), progress (OSC 9;4) and synchronized frames (DEC 2026)", async () => {
    const screen = await runEdit({ ...terminalEnv(stateDir()), TERM_PROGRAM: "WezTerm" });
    expect(screen.raw).toContain("\u001b]133;A\u0007");
    expect(screen.raw).toContain("\u001b]133;B\u0007\u001b]133;C\u0007");
    expect(screen.raw).toContain("\u001b]133;D\u0007");
    expect(screen.raw).toMatch(/\u001b\]8;;file:\/\/[^\u001b]*demo-notes\.md\u001b\\/);
    expect(screen.raw).toContain("\u001b]9;4;3;0\u0007");
    // Cleared when the turn ends, which comes after its last text is drawn.
    await waitUntil(() => screen.raw.includes("\u001b]9;4;0;0\u0007"), "the progress cleared at the end of the turn");
    expect(screen.raw).toContain("\u001b[?2026h");
    // The marks take no room: the prompt still reads as it does anywhere.
    expect(screen.text()).toContain("› edit");
  });

  it("a terminal conch does not know gets none of these sequences", async () => {
    const screen = await runEdit({ ...terminalEnv(stateDir()), TERM: "xterm-256color", TERM_PROGRAM: "" });
    expect(screen.raw).not.toContain("\u001b]133;");
    expect(screen.raw).not.toContain("\u001b]8;");
    expect(screen.raw).not.toContain("\u001b]9;4;");
    expect(screen.raw).not.toContain("\u001b[?2026");
    expect(screen.text()).toContain("› edit");
  });
});
