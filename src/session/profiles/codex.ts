import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { contentText } from "../content-text.js";
import { isFinalStatus, type ToolCallView } from "../state.js";
import type { AgentProfile, Normalized, NormalizeContext } from "./profile.js";
import { normalizePlain, plainExitStatus } from "./generic.js";
import { buildDisplay, commandFrom, PLAIN_RULES, type DisplayRules } from "./tool-display.js";
import { asRecord } from "../../json/record.js";

const EXITED = /Process exited with code (\d+)/;

/** The texts codex may report a command's end in: output, poll results, terminal bytes. */
function reportedTexts(update: { rawOutput?: unknown; content?: unknown; _meta?: unknown }): string[] {
  const out: string[] = [];
  const raw = update.rawOutput;
  if (typeof raw === "string") out.push(raw);
  const r = asRecord(raw);
  for (const key of ["formatted_output", "aggregated_output", "output"]) if (typeof r?.[key] === "string") out.push(r[key] as string);
  if (Array.isArray(update.content)) {
    for (const c of update.content) if (asRecord(c)?.type === "content") out.push(contentText((c as { content: never }).content));
  }
  const data = asRecord(asRecord(update._meta)?.terminal_output)?.data;
  if (typeof data === "string") out.push(data);
  return out;
}

function normalizeCodex(update: SessionUpdate, ctx: NormalizeContext): Normalized[] {
  if (update.sessionUpdate !== "tool_call_update" && update.sessionUpdate !== "tool_call") return normalizePlain(update);
  const out: Normalized[] = [{ update }];
  const tool = ctx.tool(update.toolCallId);
  const final =
    update.status === "completed" || update.status === "failed" || (tool !== undefined && isFinalStatus(tool) && update.status == null);
  if (!final) {
    // The exec's end event can lose a race with the turn's end; its own poll output already said so.
    for (const text of reportedTexts(update)) {
      const m = EXITED.exec(text);
      if (m) {
        out.push({ signal: "exit_seen", toolCallId: update.toolCallId, exitCode: Number(m[1]) });
        break;
      }
    }
  }
  return out;
}

function rawInputCommand(tool: ToolCallView): string | undefined {
  const input = asRecord(tool.rawInput);
  return commandFrom(input?.command) ?? commandFrom(input?.cmd);
}

/** How codex-acp spells a tool call (0.16 and 2.x alike): the command in `rawInput`, output in `rawOutput`. */
export const CODEX_RULES: DisplayRules = {
  ...PLAIN_RULES,
  command: rawInputCommand,
  // Replays name exec calls by their tool ("exec_command"); the command is what the user knows.
  title: (tool) => (tool.title === "exec_command" ? (rawInputCommand(tool) ?? tool.title) : tool.title || tool.toolCallId),
  textBlock: (text, tool) => {
    // A permission's text is the reason followed by codex's own decision list: the reason is what matters.
    const reason = asRecord(tool.rawInput)?.reason;
    if (typeof reason === "string" && reason !== "" && text.startsWith(reason)) return { type: "prose", text: reason };
    return PLAIN_RULES.textBlock(text, tool);
  },
  rawOutputText: (rawOutput) => {
    const r = asRecord(rawOutput);
    for (const key of ["formatted_output", "aggregated_output"]) {
      const v = r?.[key];
      if (typeof v === "string" && v.trim() !== "") return v;
    }
    return PLAIN_RULES.rawOutputText(rawOutput);
  },
};

/** A replayed `write_stdin` poll: the command whose start output named the same session id. */
function pollParent(tool: ToolCallView, tools: Record<string, ToolCallView>): string | undefined {
  if (tool.title !== "write_stdin") return undefined;
  const sid = asRecord(tool.rawInput)?.session_id;
  if (sid === undefined) return undefined;
  const named = new RegExp(`session ID ${String(sid)}\\b`);
  return Object.values(tools).find((t) => {
    if (t.pollOf || t.toolCallId === tool.toolCallId) return false;
    const out = t.rawOutput;
    if (typeof out === "string") return named.test(out);
    return asRecord(out)?.process_id === String(sid);
  })?.toolCallId;
}

/**
 * codex-acp 0.x (`@zed-industries/codex-acp`, frozen at 0.16): its unified exec runs a command across turns ("Process running with session ID N");
 * once a turn has answered, codex sends nothing more about a command it did not poll, so such a
 * call is shown running in codex's session rather than waited on.
 */
export const codexProfile: AgentProfile = {
  id: "codex-acp",
  label: "Codex",
  turns: { endsAtResponse: true, callsOutliveTurn: true, outlivingCallsReport: false, markers: "never", replayOutlivesResponse: false },
  turnSignals: ["prompt_response"],
  permissiveModes: ["full-access"],
  missingFileReadsAsEmpty: false,
  normalize: normalizeCodex,
  display: (tool, ctx) => buildDisplay(tool, ctx, CODEX_RULES),
  isInternalUserText: () => false,
  subagentParent: () => undefined,
  pollParent,
  hasExitStatus: (tool) => plainExitStatus(tool) || (typeof tool.rawOutput === "string" && /exited with code \d+/i.test(tool.rawOutput)),
};
