import type { Scenario } from "./scenario.js";

/** What `crash` writes to stderr before it exits. */
export const CRASH_STDERR = [
  "demo: simulated crash: out of cheese",
  "    at findCheese (demo/scenarios/crash.ts:1:1)",
  "    at playScenario (demo/run-turn.ts:1:1)",
  "",
].join("\n");

/** `crash`: streams a little, writes an error to stderr and exits with code 1 mid-turn. */
export const crashScenario: Scenario = {
  name: "crash",
  keywords: ["crash"],
  summary: "streams some text, then the agent process exits with code 1 mid-turn",
  async run(turn) {
    await turn.say("Let me look for the cheese... ");
    turn.env.processControl.writeStderr(CRASH_STDERR);
    // What was streamed so far is part of the session; keep it for a later load.
    turn.env.saveAllSync();
    turn.env.processControl.exit(1);
    // Only reached when exit is a test stub: a crashed agent never answers.
    return new Promise<never>(() => undefined);
  },
};
