import type { Scenario } from "./scenario.js";

/** The help text: every scenario with its keyword and what it shows. */
function helpText(scenarios: readonly Scenario[], intro: string): string {
  const lines = scenarios.map((scenario) => `- \`${scenario.keywords[0]}\`: ${scenario.summary}`);
  return `${intro}\n\n${lines.join("\n")}\n\nType a keyword (or \`/keyword\`), e.g. \`markdown\` or \`/edit notes.md\`.`;
}

/**
 * Builds the help scenario. It takes the list lazily because the catalog that
 * holds help is the list it describes.
 */
export function createHelpScenario(list: () => readonly Scenario[], options: { keywords: readonly string[]; intro: string }): Scenario {
  return {
    name: "help",
    keywords: options.keywords,
    summary: "lists these keywords",
    async run(turn) {
      await turn.say(helpText(list(), options.intro));
    },
  };
}
