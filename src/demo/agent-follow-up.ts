import { randomUUID } from "node:crypto";
import type { DemoConfig } from "./demo-config.js";
import type { DemoSession } from "./demo-session.js";
import { streamText } from "./text-stream.js";
import { estimateTokens, usageUpdate } from "./usage-meter.js";

/**
 * Streams a message the agent starts on its own, with no prompt pending, and
 * closes it with a `usage_update` like any turn (claude-agent-acp 0.100 does
 * this when a background task ends). With state updates on, the turn is
 * reported running before anything of it is sent, and idle after.
 */
export async function sendFollowUp(session: DemoSession, text: string, config: DemoConfig, finishing?: string): Promise<void> {
  await session.reportState("running", { finishing });
  await streamText((update) => session.send(update), "agent_message_chunk", text, {
    delayMs: config.delayMs,
    messageId: randomUUID(),
  });
  session.record.usedTokens += estimateTokens(text);
  await session.send(usageUpdate(session.record.usedTokens, session.record.model));
  await session.reportState("idle", { stopReason: "end_turn", finishing });
}
