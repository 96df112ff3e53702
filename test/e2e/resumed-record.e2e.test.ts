import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";
import { runConch } from "../support/run-conch.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = process.env.CONCH_E2E_BIN ?? path.join(ROOT, "bin/conch.js");

const screens: Screen[] = [];
afterEach(async () => {
  for (const s of screens.splice(0)) await s.kill();
});

/** One demo turn answered by a person, then the session quit and resumed. */
interface Scene {
  prompt: string;
  /** What shows once the agent asks, and the keys that answer it. */
  asked: string;
  answer: string;
  /** The agent's last words after the answer. */
  done: string;
}

/** The screen's rows live and after `--resume`, each read at rest. */
async function liveThenResumed(scene: Scene): Promise<{ live: string[]; resumed: string[] }> {
  const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
  const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-resumed-"));
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
  await live.submit(scene.prompt);
  await live.waitForText(scene.asked, 15_000, "visible");
  await live.type(scene.answer);
  await live.waitForText(scene.done, 15_000);
  await live.waitForText("message the agent", 5_000, "visible");
  await live.settle();
  const liveLines = live.lines();
  await live.type("\x03");
  await live.waitForText("press Ctrl-C again to quit", 5_000, "visible");
  await live.type("\x03");
  await Promise.race([live.exited, new Promise((r) => setTimeout(r, 10_000))]);

  const sessions = await runConch(["sessions", "--json", "--all"], { stateDir: state });
  const [{ id }] = JSON.parse(sessions.stdout) as { id: string }[];
  const resumed = open(["--resume", id]);
  await resumed.waitForText(scene.done, 15_000);
  await resumed.waitForText("message the agent", 5_000, "visible");
  await resumed.settle();
  return { live: liveLines, resumed: resumed.lines() };
}

/** The rows from the first that `top` matches to the first after it that `end` matches (`end` row included or not). */
function rowsBetween(lines: string[], top: (l: string) => boolean, end: (l: string) => boolean, withEnd: boolean): string[] {
  const from = lines.findIndex(top);
  const to = lines.findIndex((l, i) => i > from && end(l));
  if (from < 0 || to < 0) throw new Error(`no finished turn in:\n${lines.join("\n")}`);
  return lines.slice(from, withEnd ? to + 1 : to).map((l) => l.trimEnd());
}

describe("a resumed session says what the person answered, as it did live (the demo replays the session)", () => {
  it("a permission card keeps its answer", async () => {
    const { live, resumed } = await liveThenResumed({ prompt: "permission", asked: "Always reject", answer: "y", done: "so I ran it" });
    // From the card of `rm -rf build/` to the agent's answer after it: what the card says.
    const card = (lines: string[]) =>
      rowsBetween(
        lines,
        (l) => l.includes("$ rm -rf build/") && !l.includes("execute"),
        (l) => l.startsWith("For rm -rf build/"),
        false,
      );
    const answered = card(live);
    expect(answered.some((l) => l.includes("allowed once"))).toBe(true);
    expect(card(resumed)).toEqual(answered);
  });

  it("a question keeps what was asked and how it was answered, where it was", async () => {
    const { live, resumed } = await liveThenResumed({
      prompt: "question",
      asked: "ctrl-d decline",
      answer: "\x04",
      done: "so I'll leave it",
    });
    const turn = (lines: string[]) =>
      rowsBetween(
        lines,
        (l) => l.startsWith("› question"),
        (l) => l.includes("so I'll leave it"),
        true,
      );
    const said = turn(live);
    expect(said.filter((l) => l.startsWith("•"))).toEqual(["• demo asks: How should I set up the project?", "• answered: decline"]);
    expect(turn(resumed)).toEqual(said);
  });
});
