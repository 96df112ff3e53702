import type { SessionUpdate } from "@agentclientprotocol/sdk";

/** The context window the demo pretends to have (claude-agent-acp reports the same). */
export const CONTEXT_SIZE = 200_000;

/** USD per token, by model: made up, but different so a model switch shows in the cost. */
const PRICE_PER_TOKEN: Record<string, number> = {
  "demo-fast": 0.000_003,
  "demo-smart": 0.000_015,
};

/** A rough token count: about four characters per token, as for English text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Token counts of one turn, for the prompt response's `usage` field. */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** Builds a turn's `usage` field. */
export function turnUsage(inputTokens: number, outputTokens: number): TurnUsage {
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

/** What `usedTokens` cost on `model`, in USD, rounded to a millionth. */
export function costUsd(usedTokens: number, model: string): number {
  const price = PRICE_PER_TOKEN[model] ?? PRICE_PER_TOKEN["demo-fast"];
  return Math.round(usedTokens * price * 1_000_000) / 1_000_000;
}

/** The `usage_update` that closes every turn: the session's whole meter and its price. */
export function usageUpdate(usedTokens: number, model: string): SessionUpdate {
  return {
    sessionUpdate: "usage_update",
    used: usedTokens,
    size: CONTEXT_SIZE,
    cost: { amount: costUsd(usedTokens, model), currency: "USD" },
  };
}
