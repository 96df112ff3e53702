import { randomUUID } from "node:crypto";
import type { Scenario } from "./scenario.js";

/** `slow` ignores CONCH_DEMO_DELAY_MS: it exists to be cancelled, so it must still be running when the cancel comes. */
const SLOW_CHUNK_DELAY_MS = 100;

const SLOW_TEXT =
  "This answer is deliberately slow, so you have time to cancel it. " +
  "Press Escape or Ctrl-C in conch and the agent gets a session/cancel; " +
  "it stops streaming at once and answers the prompt with stopReason cancelled. " +
  "If you let it run, it ends after about five seconds, and you will have read " +
  "a paragraph about nothing much, one small piece at a time, which is also fine.";

/**
 * `slow`: text for about five seconds, stopped at once by `session/cancel`. A message steered in
 * meanwhile (`_session/steering`) is acknowledged after the sentence that was streaming, then the
 * text goes on.
 */
export const slowScenario: Scenario = {
  name: "slow",
  keywords: ["slow"],
  summary: "streams slowly for about five seconds; try cancelling it, or steering a message into it (ctrl-s)",
  async run(turn) {
    let messageId = randomUUID();
    for (const sentence of SLOW_TEXT.match(/[^.;]+[.;]\s*/g) ?? [SLOW_TEXT]) {
      if (turn.cancelled) return;
      await turn.say(sentence, SLOW_CHUNK_DELAY_MS, messageId);
      // What follows the acknowledgement is a new message, after the steered one.
      if (await turn.acknowledgeSteered()) messageId = randomUUID();
    }
  },
};
