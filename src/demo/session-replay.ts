import type { DemoSession } from "./demo-session.js";
import { openToolCalls } from "./session-history.js";

/** `session/load`: sends the saved transcript again, before the load is answered, as real agents do. */
export async function replayHistory(session: DemoSession): Promise<void> {
  for (const update of [...session.record.history]) await session.sendUnrecorded(update);
}

/**
 * Closes the tool calls a previous demo process left running (a background
 * job when that process exited). Nothing will ever finish them, so after a
 * load or resume they fail with a reason; this also gives clients a live
 * update that attaches to a replayed, still-open tool call.
 */
export async function closeOrphanedToolCalls(session: DemoSession): Promise<void> {
  for (const call of openToolCalls(session.record.history)) {
    if (session.isRunningInBackground(call.toolCallId)) continue;
    await session.send({
      sessionUpdate: "tool_call_update",
      toolCallId: call.toolCallId,
      status: "failed",
      content: [{ type: "content", content: { type: "text", text: "interrupted: the demo agent process running this exited" } }],
      ...(call.terminalId
        ? { _meta: { terminal_exit: { terminal_id: call.terminalId, exit_code: null, signal: null } } }
        : {}),
    });
  }
}
