import type { PlanEntry, SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentProfile, Normalized, NormalizeContext } from "./profile.js";
import { normalizePlain, plainExitStatus } from "./generic.js";
import { buildDisplay, PLAIN_RULES, type DisplayRules } from "./tool-display.js";
import { asRecord } from "../../json/record.js";

const PLAN_STATUSES = new Set(["pending", "in_progress", "completed"]);
const PLAN_PRIORITIES = new Set(["high", "medium", "low"]);

/** The todo list a `todowrite` call carries (`rawInput.todos`, `rawOutput.metadata.todos`), as plan entries. */
function todosOf(update: { rawInput?: unknown; rawOutput?: unknown }): PlanEntry[] | undefined {
  const list = asRecord(update.rawInput)?.todos ?? asRecord(asRecord(update.rawOutput)?.metadata)?.todos;
  if (!Array.isArray(list)) return undefined;
  const entries: PlanEntry[] = [];
  for (const item of list) {
    const todo = asRecord(item);
    if (typeof todo?.content !== "string") return undefined;
    const status = typeof todo.status === "string" && PLAN_STATUSES.has(todo.status) ? todo.status : "pending";
    const priority = typeof todo.priority === "string" && PLAN_PRIORITIES.has(todo.priority) ? todo.priority : "medium";
    entries.push({ content: todo.content, status, priority } as PlanEntry);
  }
  return entries;
}

/**
 * opencode's `todowrite` is a tool call whose result is the list as JSON text: it is the agent's
 * plan, shown as one (claude's TodoWrite is a `plan` update of its own). The call itself is left out,
 * unless it failed or was shown already (a permission asked for it).
 */
function normalizeOpencode(update: SessionUpdate, ctx: NormalizeContext): Normalized[] {
  if (update.sessionUpdate !== "tool_call" && update.sessionUpdate !== "tool_call_update") return normalizePlain(update);
  if (ctx.tool(update.toolCallId) || update.status === "failed") return normalizePlain(update);
  const todos = todosOf(update);
  if (todos) return [{ update: { sessionUpdate: "plan", entries: todos } }];
  return update.title === "todowrite" ? [] : normalizePlain(update);
}

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
  normalize: normalizeOpencode,
  display: (tool, ctx) => buildDisplay(tool, ctx, OPENCODE_RULES),
  isInternalUserText: () => false,
  subagentParent: () => undefined,
  pollParent: () => undefined,
  hasExitStatus: plainExitStatus,
};
