import type { AgentProfile } from "./profile.js";
import { normalizePlain, plainExitStatus } from "./generic.js";
import { buildDisplay, PLAIN_RULES, type DisplayRules } from "./tool-display.js";

const OPENCODE_RULES: DisplayRules = {
  ...PLAIN_RULES,
  // A tool's text is what the tool returned (`*.txt`, `__init__.py` must stay as they are); only a
  // subagent's answer (`task`, kind think) is written for a reader.
  textBlock: (text, tool) => {
    if (text.trim() === "") return undefined;
    return tool.kind === "think" ? { type: "prose", text } : { type: "output", text };
  },
};

/**
 * opencode (`opencode acp`): sends nothing after a prompt response; resends a shell call's whole
 * output so far in each update; its modes are the config option of category `mode`.
 */
export const opencodeProfile: AgentProfile = {
  id: "opencode",
  label: "OpenCode",
  turns: { endsAtResponse: true, callsOutliveTurn: false, outlivingCallsReport: false, markers: "never", replayOutlivesResponse: false },
  turnSignals: ["prompt_response"],
  permissiveModes: [],
  missingFileReadsAsEmpty: false,
  normalize: normalizePlain,
  display: (tool, ctx) => buildDisplay(tool, ctx, OPENCODE_RULES),
  isInternalUserText: () => false,
  subagentParent: () => undefined,
  pollParent: () => undefined,
  hasExitStatus: plainExitStatus,
};
