import type { Scenario } from "./scenario.js";

/** `refuse`: a short refusal that ends with `stopReason: "refusal"`. */
export const refuseScenario: Scenario = {
  name: "refuse",
  keywords: ["refuse", "refusal"],
  summary: "declines, and the turn ends with stopReason refusal",
  async run(turn) {
    await turn.say("I'm sorry, but I can't help with that. (This is a scripted refusal.)");
    return "refusal";
  },
};

/** `maxtokens`: text cut off mid-sentence, ending with `stopReason: "max_tokens"`. */
export const maxTokensScenario: Scenario = {
  name: "maxtokens",
  keywords: ["maxtokens", "max_tokens"],
  summary: "an answer cut off mid-sentence, ending with stopReason max_tokens",
  async run(turn) {
    await turn.say("Here is a very long explanation that will not fit. First, consider the token budget, which is");
    return "max_tokens";
  },
};
