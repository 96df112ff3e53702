import { RequestError, type ContentBlock } from "@agentclientprotocol/sdk";

/** The steering extension's request, as claude-agent-acp names it. */
export const STEER_METHOD = "_session/steering";

/** What the demo advertises in `initialize` (top-level `_meta`), as claude-agent-acp does. */
export const STEERING_META = { steering: { supported: true } };

/** A `_session/steering` request, checked. */
export interface SteerParams {
  sessionId: string;
  prompt: ContentBlock[];
  /** `promptRequired`: with no turn running, leave the message to the client (it sends a prompt). */
  idleBehavior?: "promptRequired";
}

/** Reads `_session/steering` params the way claude-agent-acp does: a session id and a non-empty prompt. */
export function parseSteerParams(raw: unknown): SteerParams {
  if (!raw || typeof raw !== "object") throw RequestError.invalidParams(undefined, "steer params must be an object");
  const { sessionId, prompt, _meta } = raw as { sessionId?: unknown; prompt?: unknown; _meta?: unknown };
  if (typeof sessionId !== "string" || sessionId === "")
    throw RequestError.invalidParams(undefined, "steer params require a non-empty sessionId");
  if (!Array.isArray(prompt) || prompt.length === 0)
    throw RequestError.invalidParams(undefined, "steer params require a non-empty prompt array");
  const steering = _meta && typeof _meta === "object" ? (_meta as { steering?: { idleBehavior?: unknown } }).steering : undefined;
  const idleBehavior = steering && typeof steering === "object" ? steering.idleBehavior : undefined;
  if (idleBehavior !== undefined && idleBehavior !== "promptRequired")
    throw RequestError.invalidParams(undefined, "unsupported steering idleBehavior");
  return { sessionId, prompt: prompt as ContentBlock[], idleBehavior };
}
