import type { InitializeResponse } from "@agentclientprotocol/sdk";

/** The steering extension's request: a message for the turn that runs now. */
export const STEER_METHOD = "_session/steering";

/**
 * What an agent did with a steered message: `injected` into the running turn; `promptRequired`
 * (no turn ran, and conch asked to be told): send it as a prompt; `startedNewTurn`: the agent ran
 * it as a turn of its own (an agent that ignores conch's `idleBehavior`).
 */
export interface SteerResult {
  outcome: "injected" | "promptRequired" | "startedNewTurn";
  reason?: string;
}

/** Whether an agent said in `initialize` that it takes `_session/steering` (top-level `_meta.steering.supported`). */
export function advertisesSteering(init: InitializeResponse | undefined): boolean {
  const meta = init?._meta as { steering?: { supported?: unknown } } | null | undefined;
  return meta?.steering?.supported === true;
}

/** An agent's answer to a steer, checked: anything else is an error a person can read. */
export function readSteerResult(raw: unknown): SteerResult {
  const r = raw as { outcome?: unknown; reason?: unknown } | null;
  const outcome = r && typeof r === "object" ? r.outcome : undefined;
  if (outcome !== "injected" && outcome !== "promptRequired" && outcome !== "startedNewTurn") {
    throw new Error(`the agent answered ${STEER_METHOD} with an unknown outcome: ${JSON.stringify(outcome ?? null).slice(0, 80)}`);
  }
  return typeof r?.reason === "string" ? { outcome, reason: r.reason } : { outcome };
}
