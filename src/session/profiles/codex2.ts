import type { AgentProfile } from "./profile.js";
import { CODEX_RULES } from "./codex.js";
import { normalizePlain, plainExitStatus } from "./generic.js";
import type { ToolCallView } from "../state.js";
import { buildDisplay } from "./tool-display.js";
import { asRecord } from "../../json/record.js";

/** The Codex thread a call is about: a subagent's activity (`Start subagent …`) names it. */
function subagentThread(fields: { _meta?: unknown; rawInput?: unknown }): string | undefined {
  const marked = asRecord(asRecord(asRecord(fields._meta)?.codex)?.subagent)?.threadId;
  if (typeof marked === "string" && marked) return marked;
  const input = asRecord(fields.rawInput);
  return typeof input?.agentThreadId === "string" && typeof input.activityKind === "string" ? input.agentThreadId : undefined;
}

/** The threads a `spawnAgent` call started (`_meta.codex.collaboration` in 1.x, `rawInput` in 2.x). */
function spawnedThreads(tool: ToolCallView): unknown[] {
  const collab = asRecord(asRecord(tool.meta.codex)?.collaboration);
  const ids = collab?.receiverThreadIds ?? asRecord(tool.rawInput)?.receiverThreadIds;
  return Array.isArray(ids) ? ids : [];
}

/**
 * A subagent's activity goes under the `spawnAgent` call that started its thread. (A v1 client
 * without the draft `subagents` capability sees only these calls of a subagent, not its own.)
 */
function subagentParent(fields: { _meta?: unknown; rawInput?: unknown }, tools: Record<string, ToolCallView>): string | undefined {
  const thread = subagentThread(fields);
  if (!thread) return undefined;
  return Object.values(tools).find((t) => !t.subagentOf && spawnedThreads(t).includes(thread))?.toolCallId;
}

/**
 * codex-acp 2.x (`@agentclientprotocol/codex-acp`, a TypeScript adapter over the Codex App Server).
 * Every turn is framed by `_meta.codex.threadStatus` active → idle (read by `normalizePlain` as the
 * agent's run state); a call comes before its permission request; output streams as
 * `_meta.terminal_output` (or `terminal_output_delta`) and the call completes with its exit code.
 * A command its turn left running goes on streaming with no prompt pending and reports its end;
 * when the agent stops, the command is killed and no end is ever sent. Its load replay has the live
 * shape, except for an unfinished command: then only the title and the user's message come back.
 */
export const codex2Profile: AgentProfile = {
  id: "codex-acp-2",
  label: "Codex",
  turns: { endsAtResponse: true, callsOutliveTurn: true, outlivingCallsReport: true, markers: "never", replayOutlivesResponse: false },
  turnSignals: ["thread_status", "prompt_response"],
  // `agent` ("Auto review") still has Codex's guardian ask about unsafe actions; full access asks nothing.
  permissiveModes: ["agent-full-access"],
  missingFileReadsAsEmpty: false,
  normalize: normalizePlain,
  display: (tool, ctx) => buildDisplay(tool, ctx, CODEX_RULES),
  isInternalUserText: () => false,
  subagentParent,
  pollParent: () => undefined,
  hasExitStatus: plainExitStatus,
  // `session/new` lists every model/effort pair as a model of its own: `<slug>[<effort>]`.
  splitModelId: (id) => {
    const m = /^(.+)\[([^\]]+)\]$/.exec(id);
    return m ? { model: m[1], effort: m[2] } : undefined;
  },
};
