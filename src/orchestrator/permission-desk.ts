import type { RequestPermissionOutcome, RequestPermissionRequest, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import type { SessionEventInput } from "../session/events.js";
import type { PendingPermission } from "../session/state.js";
import { answerByPolicy, type PermissionPolicy } from "./permission-policy.js";

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

/**
 * The open `session/request_permission` requests, each its own pending decision keyed by
 * direction and id. Answering one never blocks another; local policy and "allow always" (per
 * session and tool kind) answer before anyone is asked. Every decision is reported as an event.
 */
export class PermissionDesk {
  private pending = new Map<string, (r: RequestPermissionResponse) => void>();
  private rememberedKinds = new Set<string>();

  constructor(
    private readonly policy: PermissionPolicy,
    private readonly emit: (ev: SessionEventInput) => void,
  ) {}

  /** A new request: answered now by policy, or held until `answer`, `cancelAll` or the agent withdraws it. */
  ask(req: RequestPermissionRequest, key: string, signal: AbortSignal): Promise<RequestPermissionResponse> {
    this.emit({ type: "permission_asked", key, request: req });
    const byPolicy = answerByPolicy(this.policy, req, this.rememberedKinds);
    if (byPolicy) {
      const outcome: RequestPermissionOutcome = byPolicy.option
        ? { outcome: "selected", optionId: byPolicy.option.optionId }
        : { outcome: "cancelled" };
      this.emit({ type: "permission_answered", key, outcome, source: "policy" });
      return Promise.resolve({ outcome });
    }
    return new Promise((resolve) => {
      this.pending.set(key, resolve);
      signal.addEventListener("abort", () => {
        if (!this.pending.delete(key)) return;
        this.emit({ type: "permission_withdrawn", key });
        resolve(CANCELLED);
      });
    });
  }

  /** The person's answer to one request (`null` = cancelled), here or from another terminal; the others stay pending. */
  answer(key: string, optionId: string | null, asked: PendingPermission | undefined, via?: "attached"): void {
    const resolve = this.pending.get(key);
    if (!resolve) return;
    this.pending.delete(key);
    const outcome: RequestPermissionOutcome = optionId ? { outcome: "selected", optionId } : { outcome: "cancelled" };
    const option = asked?.options.find((o) => o.optionId === optionId);
    if (option?.kind === "allow_always" && asked) this.rememberedKinds.add(asked.request.toolCall.kind ?? "other");
    this.emit({ type: "permission_answered", key, outcome, source: "user", ...(via ? { via } : {}) });
    resolve({ outcome });
  }

  /** `session/cancel`: every pending request is answered `cancelled`. */
  cancelAll(): void {
    for (const [key, resolve] of this.pending) {
      this.emit({ type: "permission_answered", key, outcome: { outcome: "cancelled" }, source: "cancel" });
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
