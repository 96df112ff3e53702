import { describeExit, runInClientTerminal } from "../client-terminal-run.js";
import type { Scenario } from "./scenario.js";

/**
 * A fake build: coloured lines and a `\r` progress bar that redraws in place,
 * the things a plain text log cannot show. `step` is the pause per tick in seconds.
 */
function buildScript(step: string): string {
  return [
    "printf '\\033[1;36m==> conch demo build\\033[0m\\n'",
    "printf '\\033[2mcompiling 10 modules\\033[0m\\n'",
    "bar=''",
    "i=1",
    "while [ $i -le 10 ]; do",
    '  bar="$bar#"',
    "  printf '\\r[%-10s] %3d%%' \"$bar\" $((i * 10))",
    `  sleep ${step}`,
    "  i=$((i + 1))",
    "done",
    "printf '\\n\\033[33mwarning:\\033[0m demo.ts:3: unused variable\\n'",
    "printf '\\033[32mbuild ok\\033[0m\\n'",
  ].join("\n");
}

/** `run`: a command with colours and a progress bar in a client terminal. */
export const runScenario: Scenario = {
  name: "run",
  keywords: ["run"],
  summary: "runs a coloured command with a progress bar in a client terminal (terminal/create)",
  async run(turn) {
    if (!turn.capabilities.terminal) {
      await turn.say("Your client did not advertise the `terminal` capability, so I can't run commands in it. Nothing was run.");
      return;
    }
    await turn.say("Let me build the demo project.");
    // Keep the command short when tests ask for no delays; ~1.5 s otherwise so the bar is visible.
    const script = buildScript(turn.config.delayMs === 0 ? "0.01" : "0.15");
    const result = await runInClientTerminal(turn, {
      title: "Build the demo project",
      command: "sh",
      args: ["-c", script],
      display: script,
    });
    if (!result) return;
    await turn.say(`The build finished (${describeExit(result)}). The progress bar redrew in place and the colours came through.`);
  },
};
