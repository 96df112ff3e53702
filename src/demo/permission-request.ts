import type { PermissionOption, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { whenAborted } from "./abortable-sleep.js";
import type { Turn } from "./turn.js";

/** What the user decided: an option they picked, or `cancelled` (the turn was cancelled first). */
export type PermissionDecision = { outcome: "cancelled" } | { outcome: "selected"; option: PermissionOption };

/** The options offered before writing a file. */
export const EDIT_OPTIONS: PermissionOption[] = [
  { optionId: "allow-once", name: "Allow", kind: "allow_once" },
  { optionId: "allow-always", name: "Always allow edits", kind: "allow_always" },
  { optionId: "reject-once", name: "Reject", kind: "reject_once" },
];

/** All four option kinds, for commands. */
export const COMMAND_OPTIONS: PermissionOption[] = [
  { optionId: "allow-once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow-always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject-once", name: "Reject", kind: "reject_once" },
  { optionId: "reject-always", name: "Always reject", kind: "reject_always" },
];

/**
 * Sends `session/request_permission` and waits for the answer. A client must
 * answer `cancelled` after `session/cancel`, but the turn must not hang on one
 * that forgets, so the cancel signal also settles the decision.
 */
export async function askPermission(turn: Turn, toolCall: ToolCallUpdate, options: PermissionOption[]): Promise<PermissionDecision> {
  const answer = turn.client
    .request("session/request_permission", { sessionId: turn.session.id, toolCall, options })
    .then((response): PermissionDecision => {
      if (response.outcome.outcome === "cancelled") return { outcome: "cancelled" };
      const { optionId } = response.outcome;
      const option = options.find((candidate) => candidate.optionId === optionId);
      // An id we never offered cannot mean yes.
      return { outcome: "selected", option: option ?? { optionId, name: `unknown option "${optionId}"`, kind: "reject_once" } };
    });
  const cancelled = whenAborted(turn.signal).then((): PermissionDecision => ({ outcome: "cancelled" }));
  return Promise.race([answer, cancelled]);
}
