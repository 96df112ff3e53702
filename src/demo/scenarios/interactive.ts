import { describeExit, runInClientTerminal } from "../client-terminal-run.js";
import type { Scenario } from "./scenario.js";

const SCRIPT = 'printf "Your name? "; read name; echo "Hello, $name"';

/** `interactive`: a command that waits for the user to type into the terminal pane. */
export const interactiveScenario: Scenario = {
  name: "interactive",
  keywords: ["interactive"],
  summary: "runs a command that reads your input; focus the terminal pane and type",
  async run(turn) {
    if (!turn.capabilities.terminal) {
      await turn.say("Your client did not advertise the `terminal` capability, so there is no terminal to type into.");
      return;
    }
    const result = await runInClientTerminal(turn, {
      title: "Ask for your name",
      command: "sh",
      args: ["-c", SCRIPT],
      display: SCRIPT,
      onStarted: () => turn.say("The command is waiting for you: focus the terminal pane and type your name, then Enter."),
    });
    if (!result) return;
    const lastLine = result.output.trim().split(/\r?\n/).pop() ?? "";
    await turn.say(`The command ended (${describeExit(result)}) and said: "${lastLine}".`);
  },
};
