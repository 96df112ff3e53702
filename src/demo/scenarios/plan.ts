import type { PlanEntry } from "@agentclientprotocol/sdk";
import type { Scenario } from "./scenario.js";

const STEPS: Array<{ entry: Omit<PlanEntry, "status">; report: string }> = [
  { entry: { content: "Read the project layout", priority: "high" }, report: "The project has `src/` and `test/`; nothing surprising." },
  { entry: { content: "Write the change", priority: "medium" }, report: "The change is written (in this demo, only in spirit)." },
  { entry: { content: "Run the tests", priority: "low" }, report: "All tests pass. Pretend ones always do." },
];

/** `plan`: a three-entry plan worked through one entry at a time, the full list sent on every change. */
export const planScenario: Scenario = {
  name: "plan",
  keywords: ["plan"],
  summary: "a plan with three entries, marked in progress and completed one by one",
  async run(turn) {
    const entries: PlanEntry[] = STEPS.map((step) => ({ ...step.entry, status: "pending" }));
    // The protocol replaces the whole plan on every update, so each one carries every entry.
    const sendPlan = () => turn.send({ sessionUpdate: "plan", entries: entries.map((entry) => ({ ...entry })) });
    await sendPlan();
    await turn.say("Here is my plan. I'll work through it step by step.");
    for (const [index, step] of STEPS.entries()) {
      if (turn.cancelled) return;
      entries[index].status = "in_progress";
      await sendPlan();
      await turn.sleep(turn.config.delayMs * 10);
      await turn.say(step.report);
      if (turn.cancelled) return;
      entries[index].status = "completed";
      await sendPlan();
    }
    await turn.say("All three steps are done.");
  },
};
