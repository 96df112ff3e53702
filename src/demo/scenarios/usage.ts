import { CONTEXT_SIZE, costUsd } from "../usage-meter.js";
import type { Scenario } from "./scenario.js";

/** `usage`: says what the session's meter shows (every turn also ends with a `usage_update`). */
export const usageScenario: Scenario = {
  name: "usage",
  keywords: ["usage", "cost"],
  summary: "reports the session's token meter; every turn ends with a usage_update anyway",
  async run(turn) {
    const { usedTokens, model } = turn.session.record;
    await turn.say(
      `Before this turn the session had used **${usedTokens}** of ${CONTEXT_SIZE} tokens, about $${costUsd(usedTokens, model).toFixed(6)} on \`${model}\`. ` +
        "Every turn ends with a `usage_update`, and the prompt response carries the turn's `usage`.",
    );
  },
};
