import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";
import { runConch } from "../support/run-conch.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");

const screens: Screen[] = [];
afterEach(async () => {
  for (const s of screens.splice(0)) await s.kill();
});

/** The rows from the prompt to the agent's last words after the declined question: what the turn says. */
function turn(screen: Screen): string[] {
  const lines = screen.lines();
  const top = lines.findIndex((l) => l.startsWith("› question"));
  const end = lines.findIndex((l, i) => i > top && l.includes("so I'll leave it"));
  if (top < 0 || end < 0) throw new Error(`no finished question turn in:\n${lines.join("\n")}`);
  return lines.slice(top, end + 1).map((l) => l.trimEnd());
}

describe("a resumed session's question turn", () => {
  it("says what the agent asked and how it was answered, where it did live (the demo replays the session)", async () => {
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-question-"));
    const env = terminalEnv(state);
    const open = (args: string[]) => {
      const screen = new Screen({
        command: process.execPath,
        args: [BIN, "--agent", "demo", ...args],
        cwd: project,
        env,
        cols: 100,
        rows: 30,
      });
      screens.push(screen);
      return screen;
    };
    const live = open([]);
    await live.waitForText("message the agent", 15_000, "visible");
    await live.submit("question");
    await live.waitForText("ctrl-d decline", 15_000, "visible");
    await live.type("\x04");
    await live.waitForText("so I'll leave it", 15_000);
    await live.waitForText("message the agent", 5_000, "visible");
    await live.settle();
    const said = turn(live);
    expect(said.filter((l) => l.startsWith("•"))).toEqual(["• demo asks: How should I set up the project?", "• answered: decline"]);
    await live.type("\x03");
    await live.waitForText("press Ctrl-C again to quit", 5_000, "visible");
    await live.type("\x03");
    await Promise.race([live.exited, new Promise((r) => setTimeout(r, 10_000))]);

    const sessions = await runConch(["sessions", "--json", "--all"], { stateDir: state });
    const [{ id }] = JSON.parse(sessions.stdout) as { id: string }[];
    const resumed = open(["--resume", id]);
    await resumed.waitForText("so I'll leave it", 15_000);
    await resumed.waitForText("message the agent", 5_000, "visible");
    await resumed.settle();
    expect(turn(resumed)).toEqual(said);
  });
});
