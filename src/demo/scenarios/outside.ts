import { resolve } from "node:path";
import type { Scenario } from "./scenario.js";

/**
 * `outside`: asks the client to read a file outside the session's cwd, which a careful client
 * refuses. The demo reports what the client answered, so a person sees the refusal.
 */
export const outsideScenario: Scenario = {
  name: "outside",
  keywords: ["outside"],
  summary: "tries to read a file outside the workspace through fs/read_text_file (the client should refuse)",
  async run(turn, args) {
    const path = resolve(turn.session.cwd, args.trim() || "../outside-the-workspace.txt");
    const toolCallId = turn.newToolCallId("read");
    await turn.send({
      sessionUpdate: "tool_call",
      toolCallId,
      title: `Read ${path}`,
      kind: "read",
      status: "in_progress",
      locations: [{ path }],
    });
    try {
      const response = await turn.client.request("fs/read_text_file", { sessionId: turn.session.id, path });
      await turn.send({ sessionUpdate: "tool_call_update", toolCallId, status: "completed" });
      await turn.say(`The client let me read \`${path}\` (${response.content.length} characters). It should not have.`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await turn.send({
        sessionUpdate: "tool_call_update",
        toolCallId,
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: message } }],
      });
      await turn.say(`The client refused to read \`${path}\`: ${message}`);
    }
  },
};
