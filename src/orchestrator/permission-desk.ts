import type { RequestPermissionOutcome, RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { answerByPolicy, pickOption, type PermissionPolicy } from "./permission-policy.js";
import type { SessionEvents } from "./ports.js";
import type { RuleGate } from "./rules/rule-gate.js";

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

/**
 * The open `session/request_permission` requests, each its own pending decision keyed by
 * direction and id. Answering one never blocks another; local policy and "allow always" (per
 * session and tool kind) answer before anyone is asked. Every decision is reported as an event.
 */
export class PermissionDesk {
  private pending = new Map<string, (r: RequestPermissionResponse) => void>();
  private rememberedKinds = new Set<string>();

  /**
   * `personPresent`: someone can answer (the TUI, whatever its policy); an `ask` rule then asks
   * them, and without one (print mode) it refuses. `rules`: the permission rules, when the session has them.
   */
  constructor(
    private readonly policy: PermissionPolicy,
    private readonly events: SessionEvents,
    private readonly rules?: RuleGate,
    private readonly personPresent = policy === "ask",
  ) {}

  /** A new request: answered now by a rule or the policy, or held until `answerPermission`, `cancelAll` or the agent withdraws it. */
  ask(req: RequestPermissionRequest, key: string, signal: AbortSignal): Promise<RequestPermissionResponse> {
    this.events.dispatch({ type: "permission_asked", key, request: req });
    const byRule = this.rules?.decide(key);
    if (byRule && (byRule.verdict !== "ask" || !this.personPresent)) {
      const option =
        byRule.verdict === "allow"
          ? pickOption(req.options, ["allow_once", "allow_always"])
          : pickOption(req.options, ["reject_once", "reject_always"]);
      const outcome: RequestPermissionOutcome = option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" };
      this.events.dispatch({ type: "permission_answered", key, outcome, source: "rule", rule: byRule.rule });
      this.rules?.forget(key);
      return Promise.resolve({ outcome });
    }
    const byPolicy = answerByPolicy(this.policy, req, this.rememberedKinds);
    if (byPolicy) {
      const outcome: RequestPermissionOutcome = byPolicy.option
        ? { outcome: "selected", optionId: byPolicy.option.optionId }
        : { outcome: "cancelled" };
      this.events.dispatch({ type: "permission_answered", key, outcome, source: "policy" });
      this.rules?.forget(key);
      return Promise.resolve({ outcome });
    }
    return new Promise((resolve) => {
      this.pending.set(key, resolve);
      signal.addEventListener("abort", () => {
        if (!this.pending.delete(key)) return;
        this.rules?.forget(key);
        this.events.dispatch({ type: "permission_withdrawn", key });
        resolve(CANCELLED);
      });
    });
  }

  /** The person's answer to one pending permission (`null` = cancelled), here or from another terminal (`via`); the others stay pending. */
  answerPermission(key: string, optionId: string | null, via?: "attached"): void {
    const resolve = this.pending.get(key);
    if (!resolve) return;
    this.pending.delete(key);
    const asked = this.events.state.permissions.find((p) => p.key === key);
    const outcome: RequestPermissionOutcome = optionId ? { outcome: "selected", optionId } : { outcome: "cancelled" };
    const option = asked?.options.find((o) => o.optionId === optionId);
    this.events.dispatch({ type: "permission_answered", key, outcome, source: "user", ...(via ? { via } : {}) });
    // "Always allow" is conch's to keep, as a rule for this project, whatever the agent does with its own option.
    if (option?.kind === "allow_always" && this.rules) this.rules.remember(key);
    else if (option?.kind === "allow_always" && asked) this.rememberedKinds.add(asked.request.toolCall.kind ?? "other");
    else this.rules?.forget(key);
    resolve({ outcome });
  }

  /** `session/cancel`: every pending request is answered `cancelled`. */
  cancelAll(): void {
    for (const [key, resolve] of this.pending) {
      this.events.dispatch({ type: "permission_answered", key, outcome: { outcome: "cancelled" }, source: "cancel" });
      resolve(CANCELLED);
    }
    this.pending.clear();
  }

  /** The agent is gone: release every waiter without events (the exit is reported on its own). */
  drop(): void {
    for (const resolve of this.pending.values()) resolve(CANCELLED);
    this.pending.clear();
  }
}
