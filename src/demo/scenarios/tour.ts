import type { Scenario } from "./scenario.js";

/** `tour`: several scenarios in one turn, each introduced by a short heading. */
export function createTourScenario(stops: readonly Scenario[]): Scenario {
  return {
    name: "tour",
    keywords: ["tour"],
    summary: `plays ${stops.map((stop) => stop.name).join(", ")} in a row`,
    async run(turn) {
      await turn.say(`Welcome to the conch demo. Here is a tour: ${stops.map((stop) => stop.name).join(", ")}.`);
      for (const [index, stop] of stops.entries()) {
        if (turn.cancelled) return;
        await turn.say(`\n\n**Tour ${index + 1}/${stops.length}: ${stop.name}**: ${stop.summary}.\n\n`);
        const stopReason = await stop.run(turn, "");
        if (stopReason && stopReason !== "end_turn") return stopReason;
      }
    },
  };
}
