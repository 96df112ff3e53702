import type { Scenario } from "./scenario.js";

/**
 * `settings`: says what the session was opened with and set to: its directories (the cwd and the
 * `additionalDirectories` the client passed), the model and its context setting, the thinking switch.
 */
export const settingsScenario: Scenario = {
  name: "settings",
  keywords: ["settings", "dirs"],
  summary: "reports the session's directories (additionalDirectories) and its config options",
  async run(turn) {
    const { cwd, record } = turn.session;
    const extra = record.additionalDirectories ?? [];
    await turn.say(
      `This session works in \`${cwd}\`${extra.length ? ` and in ${extra.map((d) => `\`${d}\``).join(", ")} (additionalDirectories)` : ", with no additional directories"}. ` +
        `Model \`${record.model}\` with a ${record.context ?? "32k"} context; thinking is ${record.thinking ? "on" : "off"}.`,
    );
  },
};
