import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");
const AGENT = `${process.execPath} ${path.join(ROOT, "test/fixtures/order-agent.mjs")}`;

const screens: Screen[] = [];
afterEach(async () => {
  for (const s of screens.splice(0)) await s.kill();
});

function start(extra: string[] = []): Screen {
  const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-order-"));
  const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
  const screen = new Screen({
    command: process.execPath,
    args: [BIN, "--agent", AGENT, ...extra],
    cwd: project,
    env: terminalEnv(state),
    cols: 100,
    rows: 30,
  });
  screens.push(screen);
  return screen;
}

/** The line numbers of each text in the terminal (scrollback and screen), in order: -1 when missing. */
function positions(screen: Screen, ...texts: string[]): number[] {
  const lines = screen.lines();
  return texts.map((t) => lines.findIndex((l) => l.includes(t)));
}

const ascending = (xs: number[]) => xs.every((x, i) => x >= 0 && (i === 0 || x > xs[i - 1]));

describe("the transcript is printed in its true order", () => {
  it("a rejected command's card (its terminal never exits) comes before the reply that followed it", async () => {
    const screen = start();
    await screen.waitForText("message the agent", 15_000);
    await screen.submit("reject");
    await screen.waitForText("Reject", 15_000, "visible");
    await screen.type("n");
    await screen.waitForText("Understood, I did not run it.", 15_000);
    await screen.submit("after");
    await screen.waitForText("Answer to after.", 15_000);
    await screen.settle();
    const order = positions(screen, "› reject", "rm -rf build", "Understood, I did not run it.", "› after", "Answer to after.");
    expect(ascending(order), `${order}\n${screen.text()}`).toBe(true);
  });

  it("a call that stalls is printed in its own turn, before the next turn", async () => {
    const screen = start(["--stall-timeout", "1"]);
    await screen.waitForText("message the agent", 15_000);
    await screen.submit("stall");
    await screen.waitForText("stalled", 15_000);
    await screen.submit("next");
    await screen.waitForText("Answer to next.", 15_000);
    await screen.settle();
    const order = positions(screen, "› stall", "watch the build", "Started watching.", "› next", "Answer to next.");
    expect(ascending(order), `${order}\n${screen.text()}`).toBe(true);
  });

  it("a plan is printed where it arrived, before the text that came after it", async () => {
    const screen = start();
    await screen.waitForText("message the agent", 15_000);
    await screen.submit("plan");
    await screen.waitForText("Done with the plan.", 15_000);
    await screen.submit("next");
    await screen.waitForText("Answer to next.", 15_000);
    await screen.settle();
    const order = positions(screen, "› plan", "Look around", "Working on the plan.", "› next");
    expect(ascending(order), `${order}\n${screen.text()}`).toBe(true);
  });
});
