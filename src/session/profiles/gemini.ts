import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { contentText } from "../content-text.js";
import type { ToolCallView } from "../state.js";
import type { AgentProfile, Normalized, NormalizeContext } from "./profile.js";
import { normalizePlain, plainExitStatus } from "./generic.js";
import { buildDisplay, PLAIN_RULES, type DisplayRules } from "./tool-display.js";

const MODE_UPDATE = /^\[MODE_UPDATE\]\s*(\S+)\s*$/;
const CWD_PREFIX = /^\s*\[current working directory ([^\]]+)\]\s*/;
const INTERNAL = [/^\s*<session_context\b/, /^\s*\[Function Response:/];

function normalizeGemini(update: SessionUpdate, ctx: NormalizeContext): Normalized[] {
  if (update.sessionUpdate === "agent_message_chunk") {
    // gemini announces a mode change as message text instead of current_mode_update.
    const mode = MODE_UPDATE.exec(contentText(update.content));
    if (mode) return [{ update: { sessionUpdate: "current_mode_update", currentModeId: mode[1] } }];
  }
  // After a load, gemini replays past its response; the commands it sends from a timer come last.
  if (update.sessionUpdate === "available_commands_update" && ctx.replayTail) return [{ update }, { signal: "replay_over" }];
  return normalizePlain(update);
}

function cwdInText(tool: ToolCallView): string | undefined {
  for (const c of tool.content) {
    if (c.type !== "content" || c.content.type !== "text") continue;
    const m = CWD_PREFIX.exec(c.content.text);
    if (m) return m[1];
  }
  return undefined;
}

const GEMINI_RULES: DisplayRules = {
  ...PLAIN_RULES,
  // gemini sends no rawInput: an execute call's title is the command it runs (cwd and description go to its content).
  command: (tool) => PLAIN_RULES.command(tool) ?? (tool.kind === "execute" && tool.title ? tool.title : undefined),
  cwd: (tool) => PLAIN_RULES.cwd(tool) ?? cwdInText(tool),
  // A command's description comes after "[current working directory …]", which is shown on its own.
  textBlock: (text, tool) => PLAIN_RULES.textBlock(text.replace(CWD_PREFIX, ""), tool),
};

/** gemini-cli (`gemini --acp`): nothing comes after a prompt response, except a load's replay tail. */
export const geminiProfile: AgentProfile = {
  id: "gemini-cli",
  label: "Gemini",
  turns: { endsAtResponse: true, callsOutliveTurn: false, outlivingCallsReport: false, markers: "never", replayOutlivesResponse: true },
  turnSignals: ["prompt_response"],
  permissiveModes: ["yolo"],
  missingFileReadsAsEmpty: true,
  normalize: normalizeGemini,
  display: (tool, ctx) => buildDisplay(tool, ctx, GEMINI_RULES),
  isInternalUserText: (text) => INTERNAL.some((r) => r.test(text)),
  subagentParent: () => undefined,
  pollParent: () => undefined,
  hasExitStatus: plainExitStatus,
};
