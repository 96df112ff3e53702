import type { PromptRequest, PromptResponse, StopReason } from "@agentclientprotocol/sdk";
import type { DemoEnvironment } from "./demo-environment.js";
import type { DemoSession } from "./demo-session.js";
import { describeAttachments, promptText } from "./prompt-text.js";
import { chooseScenario } from "./scenario-router.js";
import { Turn } from "./turn.js";
import { estimateTokens, turnUsage, usageUpdate, type TurnUsage } from "./usage-meter.js";

/**
 * The prompt response. `usage` is not in the stable v1 schema yet, but real
 * agents send it (claude-agent-acp) and clients read it.
 */
export type DemoPromptResponse = PromptResponse & { usage?: TurnUsage };

/** A finished turn: the response to send, and the turn whose deferred jobs start once it is sent. */
export interface TurnOutcome {
  response: DemoPromptResponse;
  turn: Turn;
}

/**
 * Plays one prompt: records it, picks and runs its scenario, then closes the
 * turn with a `usage_update` and saves the session. Turns of one session run
 * one at a time.
 */
export function runTurn(
  session: DemoSession,
  request: PromptRequest,
  requestSignal: AbortSignal,
  env: DemoEnvironment,
): Promise<TurnOutcome> {
  return session.runExclusive(async () => {
    const text = promptText(request.prompt);
    session.recordPrompt(request.prompt, text);
    const controller = session.beginTurn(requestSignal);
    await session.reportState("running");
    const turn = new Turn(session, controller.signal, env);
    let stopReason: StopReason;
    try {
      const attachments = describeAttachments(request.prompt);
      if (attachments) await turn.say(attachments);
      // The boolean `thinking` option: a thought before every answer.
      if (session.record.thinking) await turn.think("Thinking is on, so first a thought: which script does this prompt ask for?");
      const { scenario, args } = chooseScenario(text);
      stopReason = (await scenario.run(turn, args)) ?? "end_turn";
      // A message steered in after the scenario last looked is still answered within this turn.
      if (!turn.cancelled) await turn.acknowledgeSteered();
    } catch (error) {
      turn.abandonDeferredJobs();
      throw error;
    } finally {
      session.endTurn(controller);
    }
    if (turn.cancelled) stopReason = "cancelled";

    const inputTokens = estimateTokens(text);
    session.record.usedTokens += inputTokens + turn.outputTokens;
    await session.send(usageUpdate(session.record.usedTokens, session.record.model));
    await session.save().catch((error: unknown) => env.processControl.writeStderr(`demo: could not save session: ${String(error)}\n`));
    await session.reportState("idle", { stopReason });
    // Like claude-agent-acp, a cancelled turn reports no usage.
    const response: DemoPromptResponse =
      stopReason === "cancelled" ? { stopReason } : { stopReason, usage: turnUsage(inputTokens, turn.outputTokens) };
    return { response, turn };
  });
}
