import { RequestError } from "@agentclientprotocol/sdk";
import { sleep } from "./abortable-sleep.js";
import type { DemoSession } from "./demo-session.js";
import { sendFollowUp } from "./agent-follow-up.js";
import type { DemoConfig } from "./demo-config.js";
import { BACKGROUND_FOLLOW_UP } from "./scenarios/background.js";
import { openToolCalls } from "./session-history.js";

/**
 * `session/load`: sends the saved transcript again, before the load is answered, as real agents do.
 * It first takes `loadMs` (a slow store); a client that gives up (`$/cancel_request`) gets
 * `-32800` and no replay.
 */
export async function replayHistory(session: DemoSession, loadMs = 0, signal?: AbortSignal): Promise<void> {
  await sleep(loadMs, signal);
  if (signal?.aborted) throw RequestError.requestCancelled(undefined, "the client gave up on the load");
  for (const update of [...session.record.history]) await session.sendUnrecorded(update);
}

/**
 * Picks up the tool calls a previous demo process left running (a background job when that
 * process exited). A job shown in a display terminal carries on: its pane gets output again and
 * it completes later, as a real agent's long-running task would after a reconnect. Anything else
 * can never finish, so it fails with a reason. Either way clients get live updates that attach
 * to a replayed, still-open tool call.
 */
export async function closeOrphanedToolCalls(session: DemoSession, config: DemoConfig): Promise<void> {
  for (const call of openToolCalls(session.record.history)) {
    if (session.isRunningInBackground(call.toolCallId)) continue;
    if (call.terminalId) {
      const terminalId = call.terminalId;
      const output = (data: string) =>
        session.send({
          sessionUpdate: "tool_call_update",
          toolCallId: call.toolCallId,
          _meta: { terminal_output: { terminal_id: terminalId, data } },
        });
      session.adoptBackground(call.toolCallId);
      await session.reportState("idle");
      await output("(still running after the agent restarted)\r\n");
      setTimeout(() => {
        void (async () => {
          await output("done\r\n");
          await session.send({
            sessionUpdate: "tool_call_update",
            toolCallId: call.toolCallId,
            status: "completed",
            _meta: { terminal_exit: { terminal_id: terminalId, exit_code: 0, signal: null } },
          });
          await sendFollowUp(session, BACKGROUND_FOLLOW_UP, config, call.toolCallId);
          session.releaseBackground(call.toolCallId);
          await session.save();
        })().catch(() => undefined);
      }, config.backgroundMs);
      continue;
    }
    await session.send({
      sessionUpdate: "tool_call_update",
      toolCallId: call.toolCallId,
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: "interrupted: the demo agent process running this exited" } }],
      ...(call.terminalId ? { _meta: { terminal_exit: { terminal_id: call.terminalId, exit_code: null, signal: null } } } : {}),
    });
  }
}
