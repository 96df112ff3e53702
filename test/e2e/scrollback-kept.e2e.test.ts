import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = process.env.CONCH_E2E_BIN ?? path.join(ROOT, "bin/conch.js");

const screens: Screen[] = [];
afterEach(async () => {
  for (const s of screens.splice(0)) await s.kill();
});

/** The demo in a small terminal, with `count` prompts answered: the transcript fills more than a screen. */
async function demoWithTranscript(count: number, size: { cols: number; rows: number }): Promise<{ screen: Screen; prompts: string[] }> {
  const screen = new Screen({
    command: process.execPath,
    args: [BIN, "--agent", "demo"],
    cwd: mkdtempSync(path.join(tmpdir(), "conch-e2e-scrollback-")),
    env: terminalEnv(mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"))),
    ...size,
  });
  screens.push(screen);
  await screen.waitForText("message the agent", 15_000, "visible");
  const prompts = Array.from({ length: count }, (_, i) => `note${i + 1}`);
  for (const prompt of prompts) {
    await screen.submit(prompt);
    await screen.waitForText(`› ${prompt}`, 10_000);
    await screen.waitForText("message the agent", 10_000, "visible");
  }
  return { screen, prompts };
}

/** Every prompt's row is still in the terminal (scrollback included), once each and in order. */
function expectPromptsKept(screen: Screen, prompts: string[]): void {
  const lines = screen.lines();
  const rows = prompts.map((prompt) => lines.filter((l) => l.trimEnd().endsWith(`› ${prompt}`)).length);
  expect(rows, `the terminal holds:\n${lines.join("\n")}`).toEqual(prompts.map(() => 1));
  const at = prompts.map((prompt) => lines.findIndex((l) => l.trimEnd().endsWith(`› ${prompt}`)));
  expect(at).toEqual([...at].sort((a, b) => a - b));
}

/** The slow answer streams into a live region as tall as the chrome leaves it. */
async function streamSlowly(screen: Screen): Promise<void> {
  await screen.submit("slow");
  await screen.waitForText("cancelled", 10_000, "visible");
}

// Ink clears the whole terminal, scrollback included, before a frame when the last one reached the
// terminal's height; conch's transcript is in that scrollback, so no frame may reach it.
describe("the transcript stays in the scrollback whatever the frame's height", () => {
  it("a permission prompt taller than the terminal", async () => {
    const { screen, prompts } = await demoWithTranscript(4, { cols: 40, rows: 14 });
    await screen.submit("permission");
    await screen.waitForText("Always reject", 10_000, "visible");
    // The prompt's options and the editor are on screen (the frame keeps its bottom rows).
    expect(screen.visible()).toContain("Allow once");
    expect(screen.visible()).toContain("conch demo agent");
    await screen.type("y");
    await screen.waitForText("you chose Allow once", 10_000);
    await screen.waitForText("message the agent", 10_000, "visible");
    await screen.settle();
    expectPromptsKept(screen, prompts);
  });

  it("the terminal loses rows while an answer streams", async () => {
    const { screen, prompts } = await demoWithTranscript(6, { cols: 40, rows: 16 });
    await streamSlowly(screen);
    screen.resize(40, 10);
    await screen.waitForText("which is also fine.", 10_000);
    await screen.waitForText("message the agent", 10_000, "visible");
    await screen.settle();
    expectPromptsKept(screen, prompts);
    // The frame is drawn whole on the smaller screen: its editor and status line are on screen.
    expect(screen.visible()).toContain("message the agent");
    // The rows of the frame the terminal pushed into its scrollback are not left there: the
    // transcript is printed again, the answer once.
    await screen.waitForText("which is also fine.", 10_000);
    const lines = screen.lines();
    expect(
      lines.filter((l) => l.includes("This answer is deliberately slow")),
      lines.join("\n"),
    ).toHaveLength(1);
    expect(
      lines.filter((l) => l.includes("more lines above")),
      lines.join("\n"),
    ).toHaveLength(0);
  });
});
