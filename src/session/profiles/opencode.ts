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
  // A cancel stops a shell command, which opencode then reports `completed`: it did not run to its end.
  if (update.status === "completed" && abortedByUser(update))
    return [...normalizePlain(update), { signal: "call_cancelled", toolCallId: update.toolCallId }];
  if (ctx.tool(update.toolCallId) || update.status === "failed") return normalizePlain(update);
  const todos = todosOf(update);
  if (todos) return [{ update: { sessionUpdate: "plan", entries: todos } }];
  return update.title === "todowrite" ? [] : normalizePlain(update);
}

/** opencode's note to its model after a shell command's output ("User aborted the command"), in its own markup. */
const SHELL_METADATA = /\s*<shell_metadata>\s*([\s\S]*?)\s*<\/shell_metadata>\s*$/;
const ABORTED = "User aborted the command";

function abortedByUser(update: { content?: unknown; rawOutput?: unknown }): boolean {
  const texts = [asRecord(update.rawOutput)?.output];
  if (Array.isArray(update.content)) for (const c of update.content) texts.push(asRecord(asRecord(c)?.content)?.text);
  return texts.some((t) => typeof t === "string" && SHELL_METADATA.exec(t)?.[1] === ABORTED);
}

const withoutAbortNote = (text: string) => text.replace(SHELL_METADATA, (_, note: string) => (note === ABORTED ? "" : `\n\n${note}`));

const OPENCODE_RULES: DisplayRules = {
  ...PLAIN_RULES,
  // A tool's text is what the tool returned (`*.txt`, `__init__.py` must stay as they are); only a
  // subagent's answer (`task`, kind think) is written for a reader. The shell's note to the model is
  // no output: an abort is the call's status, another note stays as a line of its own.
  textBlock: (raw, tool) => {
    const text = withoutAbortNote(raw);
    if (text.trim() === "") return undefined;
    return tool.kind === "think" ? { type: "prose", text } : { type: "output", text };
  },
  rawOutputText: (rawOutput) => {
    const text = PLAIN_RULES.rawOutputText(rawOutput);
    return text === undefined ? undefined : withoutAbortNote(text);
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
