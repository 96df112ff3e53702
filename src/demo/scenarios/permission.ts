import type { ToolCall } from "@agentclientprotocol/sdk";
import { askPermission, COMMAND_OPTIONS, type PermissionDecision } from "../permission-request.js";
import type { Turn } from "../turn.js";
import type { Scenario } from "./scenario.js";

/** The command `permission` pretends to run. */
const DANGEROUS_COMMAND = "rm -rf build/";

/** `permission`: one pending tool call, four options, and the choice reported back. */
export const permissionScenario: Scenario = {
  name: "permission",
  keywords: ["permission"],
  summary: `asks before running \`${DANGEROUS_COMMAND}\` (all four option kinds) and says what you chose`,
  async run(turn) {
    const call = await announceCommand(turn, DANGEROUS_COMMAND, "Deletes the build output folder.");
    const decision = await askPermission(turn, { ...call, status: "pending" }, COMMAND_OPTIONS);
    await settleCommand(turn, call.toolCallId, decision);
    if (decision.outcome === "cancelled") return "cancelled";
    await turn.say(describeDecision(DANGEROUS_COMMAND, decision));
  },
};

/** Sends the pending `execute` tool call a permission request is about. */
export async function announceCommand(turn: Turn, command: string, why: string): Promise<ToolCall> {
  const call: ToolCall = {
    toolCallId: turn.newToolCallId("perm"),
    title: command,
    kind: "execute",
    status: "pending",
    rawInput: { command },
    content: [{ type: "content", content: { type: "text", text: why } }],
  };
  await turn.send({ sessionUpdate: "tool_call", ...call });
  return call;
}

/** Closes the tool call the way the decision says; nothing is really run. */
export async function settleCommand(turn: Turn, toolCallId: string, decision: PermissionDecision): Promise<void> {
  const allowed = decision.outcome === "selected" && decision.option.kind.startsWith("allow");
  const text =
    decision.outcome === "cancelled" ? "cancelled" : allowed ? "(demo) pretended to run it: nothing was changed" : "rejected by user";
  await turn.send({
    sessionUpdate: "tool_call_update",
    toolCallId,
    status: allowed ? "completed" : "failed",
    content: [{ type: "content", content: { type: "text", text } }],
  });
}

/** One sentence naming the option the user picked and what followed. */
export function describeDecision(command: string, decision: PermissionDecision): string {
  if (decision.outcome === "cancelled") return `The request for \`${command}\` was cancelled.`;
  const { name, kind } = decision.option;
  const verdict = kind.startsWith("allow") ? "so I ran it (pretend: nothing was deleted)" : "so I did not run it";
  return `For \`${command}\` you chose **${name}** (\`${kind}\`), ${verdict}.`;
}
