import type { PermissionOption, RequestPermissionRequest, ToolKind } from "@agentclientprotocol/sdk";

/** How permission requests are answered without a person: `ask` means a person answers. */
export type PermissionPolicy = "ask" | "deny" | "approve-reads" | "approve-all";

export const PERMISSION_POLICIES: PermissionPolicy[] = ["ask", "deny", "approve-reads", "approve-all"];

const READ_KINDS = new Set<ToolKind>(["read", "search", "think", "fetch"]);

/** The first option of the first of `kinds` the request offers. */
export function pickOption(options: PermissionOption[], kinds: string[]): PermissionOption | undefined {
  for (const k of kinds) {
    const o = options.find((opt) => opt.kind === k);
    if (o) return o;
  }
  return undefined;
}

/** The answer a policy gives before anyone is asked, or undefined to ask the person. */
export interface PolicyAnswer {
  option?: PermissionOption;
  /** Set when the policy refused: print mode reports it and exits 5. */
  denied: boolean;
}

/**
 * Answers a permission request by option *kind*, never by id: ids differ per agent (`allow`,
 * `allow-once`, `approved`, `proceed_once`). `remembered` holds tool kinds the user allowed always.
 */
export function answerByPolicy(
  policy: PermissionPolicy,
  req: RequestPermissionRequest,
  remembered: ReadonlySet<string>,
): PolicyAnswer | undefined {
  const kind = req.toolCall.kind ?? "other";
  if (remembered.has(kind)) {
    const option = pickOption(req.options, ["allow_always", "allow_once"]);
    if (option) return { option, denied: false };
  }
  if (policy === "ask") return undefined;
  const allow = policy === "approve-all" || (policy === "approve-reads" && READ_KINDS.has(kind as ToolKind));
  if (allow) {
    const option = pickOption(req.options, ["allow_once", "allow_always"]);
    if (option) return { option, denied: false };
  }
  return { option: pickOption(req.options, ["reject_once", "reject_always"]), denied: true };
}
