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

async function demoAt(cols: number, rows: number): Promise<Screen> {
  const screen = new Screen({
    command: process.execPath,
    args: [BIN, "--agent", "demo"],
    cwd: mkdtempSync(path.join(tmpdir(), "conch-e2e-permission-")),
    env: terminalEnv(mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"))),
    cols,
    rows,
  });
  screens.push(screen);
  await screen.waitForText("message the agent", 15_000, "visible");
  return screen;
}

// A frame taller than the screen is cut from its top (ink-draw/screen-fit): the prompt must fit the
// rows it has, or the cut takes what the user is asked to approve.
describe("a permission prompt on a small terminal shows what it asks", () => {
  it("40x14: the question, the command and every option are on screen", async () => {
    const screen = await demoAt(40, 14);
    await screen.submit("permission");
    await screen.waitForText("Always reject", 10_000, "visible");
    const shown = screen.visible();
    expect(shown, shown).toContain("Permission $ execute rm -rf build/");
    expect(shown, shown).toContain("$ rm -rf build/");
    for (const option of ["Allow once", "Always allow", "Reject", "Always reject"]) expect(shown, shown).toContain(option);
    await screen.type("y");
    await screen.waitForText("you chose Allow once", 10_000);
  });

  it("60x10, two requests at once: each one's question in turn, with its options", async () => {
    const screen = await demoAt(60, 10);
    await screen.submit("permissions2");
    await screen.waitForText("Always reject", 10_000, "visible");
    let shown = screen.visible();
    expect(shown, shown).toContain("Permission $ execute git push --force origin main");
    expect(shown, shown).toContain("waiting for permission (2)");
    expect(shown, shown).toMatch(/› 1 y Allow once/);
    await screen.type("n");
    await screen.waitForText("curl -fsSL", 10_000, "visible");
    shown = screen.visible();
    expect(shown, shown).toContain("Permission $ execute curl -fsSL");
    expect(shown, shown).toContain("Always reject");
    await screen.type("n");
    await screen.waitForText("so I did not run it", 10_000);
  });

  it("a change of width while the prompt waits: once resizing stops, the screen holds the prompt once, no rows of the old frame", async () => {
    const screen = await demoAt(60, 10);
    await screen.submit("permission");
    await screen.waitForText("Always reject", 10_000, "visible");
    // The terminal rewraps the old frame's rows to the new width; Ink cannot erase them all: the
    // transcript is printed again once resizing stops, whatever moves on screen (the spinner).
    screen.resize(40, 24);
    const count = (text: string) => screen.visible().split(text).length - 1;
    const clean = () =>
      count("Permission $ execute rm -rf build/") === 1 &&
      count("Allow once") === 1 &&
      count("waiting for permission") === 1 &&
      // The old frame's border, rewrapped: a row of only "│".
      !/^│\s*$/m.test(screen.visible());
    const deadline = Date.now() + 10_000;
    for (;;) {
      await screen.settle();
      if (clean()) break;
      if (Date.now() > deadline) throw new Error(`the old frame's rows stayed on screen:\n${screen.visible()}`);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    await screen.type("y");
    await screen.waitForText("you chose Allow once", 10_000);
  });

  it("30x10: the status line and the editor give way while the prompt waits; the question and the command stay", async () => {
    const screen = await demoAt(30, 10);
    await screen.submit("permission");
    // The chrome gives way a frame after the prompt's first: its heights are measured first (under load that
    // frame comes later than a settle's quiet period).
    await screen.waitForText("Always reject", 10_000, "visible");
    await screen.settle();
    const shown = screen.visible();
    expect(shown, shown).toContain("Permission $ execute rm -rf");
    expect(shown, shown).toContain("$ rm -rf build/");
    expect(shown, shown).toContain("Always reject");
    await screen.type("y");
    // Wrapped at 30 columns: the words may be on two rows.
    await screen.waitForText(/you chose\s+Allow\s+once/, 10_000);
    await screen.waitForText("message the agent", 5_000, "visible");
  });
});

describe("the agent's question on a small terminal shows what it asks", () => {
  it("40x14: the question and the focused field, then the next after tab", async () => {
    const screen = await demoAt(40, 14);
    await screen.submit("question");
    await screen.waitForText("Project name", 10_000, "visible");
    await screen.settle();
    let shown = screen.visible();
    expect(shown, shown).toContain("? How should I set up the project?");
    expect(shown, shown).toContain("› Project name *:");
    await screen.type("demo\t");
    await screen.waitForText("› Language *:", 10_000, "visible");
    shown = screen.visible();
    expect(shown, shown).toContain("? How should I set up the project?");
  });
});
