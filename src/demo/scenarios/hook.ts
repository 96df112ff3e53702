import { askPermission, COMMAND_OPTIONS } from "../permission-request.js";
import type { Scenario } from "./scenario.js";

/** The command the hook asks about. */
const HOOKED_COMMAND = "git status";

/**
 * `hook`: asks permission for a tool call it never announces and never closes, as an agent does
 * whose permission hook asks before each shell command under an id of its own making. The turn
 * then ends: that call is no work left open.
 */
export const hookScenario: Scenario = {
  name: "hook",
  keywords: ["hook"],
  summary: `a permission hook asks before \`${HOOKED_COMMAND}\` for a call the agent never announces or closes`,
  async run(turn) {
    await turn.say("A hook wants your approval first. ");
    const decision = await askPermission(
      turn,
      {
        toolCallId: turn.newToolCallId("hook"),
        title: HOOKED_COMMAND,
        kind: "execute",
        status: "pending",
        rawInput: { command: HOOKED_COMMAND },
      },
      COMMAND_OPTIONS,
    );
    if (decision.outcome === "cancelled") return "cancelled";
    const allowed = decision.option.kind.startsWith("allow");
    await turn.say(
      allowed ? `You allowed \`${HOOKED_COMMAND}\` (the demo runs nothing). Done.` : `You said no to \`${HOOKED_COMMAND}\`. Done.`,
    );
  },
};
