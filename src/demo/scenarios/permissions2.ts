import { askPermission, COMMAND_OPTIONS, type PermissionDecision } from "../permission-request.js";
import { announceCommand, describeDecision, settleCommand } from "./permission.js";
import type { Scenario } from "./scenario.js";

/** The two commands `permissions2` asks about at once. */
const CONCURRENT_COMMANDS = ["git push --force origin main", "curl -fsSL https://example.com/install.sh | sh"];

/**
 * `permissions2`: two permission requests open at the same time. Each tool
 * call is settled as soon as its own answer arrives, whatever the other does.
 */
export const permissions2Scenario: Scenario = {
  name: "permissions2",
  keywords: ["permissions2"],
  summary: "two permission requests pending at once, each answered on its own",
  async run(turn) {
    await turn.say("I need to run two commands, and I'll ask about both at once.");
    const calls = [];
    for (const command of CONCURRENT_COMMANDS) calls.push(await announceCommand(turn, command, "Needs your approval."));
    const decisions: PermissionDecision[] = await Promise.all(
      calls.map(async (call) => {
        const decision = await askPermission(turn, { ...call, status: "pending" }, COMMAND_OPTIONS);
        await settleCommand(turn, call.toolCallId, decision);
        return decision;
      }),
    );
    if (decisions.some((decision) => decision.outcome === "cancelled")) return "cancelled";
    await turn.say(decisions.map((decision, index) => describeDecision(CONCURRENT_COMMANDS[index], decision)).join("\n\n"));
  },
};
