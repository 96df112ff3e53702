import type { Scenario } from "./scenario.js";

/** `thoughts`: a turn made only of thinking; no message at all. */
export const thoughtsScenario: Scenario = {
  name: "thoughts",
  keywords: ["thoughts", "thinking"],
  summary: "only agent_thought_chunks, no answer text",
  async run(turn) {
    await turn.think("Hmm. The user asked for thoughts only. ");
    await turn.think("So I will think out loud and then stop without saying anything.");
  },
};
