import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { contentText } from "../content-text.js";
import type { AgentProfile, Normalized, NormalizeContext, ToolBlock, ToolDisplay } from "./profile.js";
import type { ToolCallView } from "../state.js";
import { normalizePlain, plainExitStatus } from "./generic.js";
import { buildDisplay, PLAIN_RULES, type DisplayRules } from "./tool-display.js";
import { asRecord } from "../../json/record.js";

const INTERNAL =
  /^\s*(<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|system-reminder)\b|\[Request interrupted by user)/;
/** Claude Code's notes to its model, appended to tool results and user messages: nothing for a person. */
const SYSTEM_REMINDER = /\s*<system-reminder>[\s\S]*?<\/system-reminder>\s*/g;

const tagText = (text: string, tag: string) => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(text)?.[1].trim();

/**
 * Claude Code's internal user text as a person reads it: a slash command it replays as markup
 * (`<command-name>/model</command-name>…<command-args>default</command-args>`) as `/model default`,
 * its output as the text, the marker of an interrupted turn in words, a system reminder as nothing.
 */
function readClaudeInternal(raw: string): string {
  const text = raw.replace(SYSTEM_REMINDER, "\n").trim();
  const command = tagText(text, "command-name");
  if (command !== undefined) return [command, tagText(text, "command-args")].filter(Boolean).join(" ");
  const out = tagText(text, "local-command-stdout") ?? tagText(text, "local-command-stderr");
  if (out !== undefined) return out;
  if (/^\[Request interrupted by user/.test(text)) return "(interrupted by the user)";
  return text;
}

/** The plain rules, without the system reminders Claude Code appends to what its tools return (a Read). */
const CLAUDE_RULES: DisplayRules = {
  ...PLAIN_RULES,
  textBlock: (text, tool) => PLAIN_RULES.textBlock(text.replace(SYSTEM_REMINDER, "\n").replace(/\n+(?=(`{3,}|~{3,})\s*$)/, "\n"), tool),
  rawOutputText: (rawOutput) => PLAIN_RULES.rawOutputText(rawOutput)?.replace(SYSTEM_REMINDER, "\n").trimEnd(),
};
const BACKGROUND_ID = /running in background with ID: (\S+?)\.?(\s|$)/;

/** The background task a Bash call started: Claude Code names it in the tool response and the output text. */
function backgroundTaskId(update: { _meta?: unknown; rawOutput?: unknown }): string | undefined {
  const claudeCode = asRecord(asRecord(update._meta)?.claudeCode);
  const id = asRecord(claudeCode?.toolResponse)?.backgroundTaskId;
  if (typeof id === "string" && id !== "") return id;
  return typeof update.rawOutput === "string" ? BACKGROUND_ID.exec(update.rawOutput)?.[1] : undefined;
}

/** A subagent's own words (0.25–0.9x send them) are its working, not the answer: its call shows its result. */
const fromSubagent = (update: { _meta?: unknown }) => Boolean(asRecord(asRecord(update._meta)?.claudeCode)?.parentToolUseId);

/** `_meta["_claude/origin"]` on the usage update that closes each turn (0.100): whose turn it was. */
function turnOrigin(update: { _meta?: unknown }): "prompt" | "agent" | undefined {
  const origin = asRecord(asRecord(update._meta)?.["_claude/origin"]);
  if (typeof origin?.kind !== "string") return undefined;
  return origin.kind === "human" ? "prompt" : "agent";
}

function taskOfCall(ctx: NormalizeContext, toolCallId: string): string | undefined {
  return Object.values(ctx.background).find((t) => t.toolCallId === toolCallId)?.taskId;
}

function normalizeClaude(update: SessionUpdate, ctx: NormalizeContext): Normalized[] {
  const u = update as SessionUpdate & Record<string, unknown>;
  switch (update.sessionUpdate) {
    case "user_message_chunk": {
      if (fromSubagent(update)) return [];
      // A replayed prompt carries the reminders Claude Code added for its model: the person typed none of them.
      const text = update.content.type === "text" ? update.content.text : undefined;
      if (text !== undefined && text.includes("<system-reminder>")) {
        const kept = text.replace(SYSTEM_REMINDER, "\n").trim();
        return kept === "" ? [] : [{ update: { ...update, content: { ...update.content, type: "text", text: kept } } }];
      }
      return contentText(update.content) === "" ? [{ signal: "block_break" }] : [{ update }];
    }
    case "agent_message_chunk":
    case "agent_thought_chunk":
      if (fromSubagent(update)) return [];
      // 0.23 opens every content block with an empty chunk: it only says a new block begins.
      return contentText(update.content) === "" ? [{ signal: "block_break" }] : [{ update }];
    case "usage_update": {
      const origin = turnOrigin(update);
      return origin ? [{ update }, { signal: "turn_marker", origin }] : [{ update }];
    }
    case "tool_call":
    case "tool_call_update": {
      const out: Normalized[] = [{ update }];
      const started = backgroundTaskId(update);
      if (started && !ctx.background[started]) {
        const title = update.title ?? ctx.tool(update.toolCallId)?.title;
        out.push({ signal: "background_started", taskId: started, toolCallId: update.toolCallId, label: title ?? undefined });
      }
      const exit = asRecord(asRecord(update._meta)?.terminal_exit);
      const task = exit ? taskOfCall(ctx, update.toolCallId) : undefined;
      // With `_meta.terminal_output`, the bare update carrying the exit is the job's real end (0.100).
      if (task && update.sessionUpdate === "tool_call_update" && update.status == null)
        out.push({ signal: "background_ended", taskId: task });
      return out;
    }
    default:
      break;
  }
  // The JetBrains "asyncTasks" extension, if an agent sends it unasked: tasks as their own updates.
  switch (u.sessionUpdate as string) {
    case "async_task_spawned": {
      const id = typeof u.asyncTaskId === "string" ? u.asyncTaskId : undefined;
      if (!id || u.taskType !== "shell" || ctx.background[id]) return [];
      const toolCallId = typeof u.toolCallId === "string" ? u.toolCallId : undefined;
      return [{ signal: "background_started", taskId: id, toolCallId, label: typeof u.name === "string" ? u.name : undefined }];
    }
    case "async_task_state_update": {
      const id = typeof u.asyncTaskId === "string" ? u.asyncTaskId : undefined;
      const done = u.state === "completed" || u.state === "failed" || u.state === "stopped" || u.state === "killed";
      return id && done && ctx.background[id] ? [{ signal: "background_ended", taskId: id }] : [];
    }
    case "async_task_progress":
      return [];
  }
  return normalizePlain(update);
}

/**
 * Claude's Edit shows `old_string` → `new_string` as its diff until the edit is done (the request,
 * the card while it waits): the changed lines only, not the file, so their line numbers are unknown.
 */
function markExcerpts(tool: ToolCallView, display: ToolDisplay): ToolDisplay {
  const input = asRecord(tool.rawInput);
  const from = input?.old_string;
  const to = input?.new_string;
  if (typeof from !== "string" || typeof to !== "string") return display;
  const excerpt = (b: ToolBlock) => b.type === "diff" && b.oldText === from && b.newText === to;
  if (!display.blocks.some(excerpt)) return display;
  return { ...display, blocks: display.blocks.map((b) => (excerpt(b) ? { ...b, excerpt: true } : b)) };
}

function claudeProfile(variant: "0.100" | "0.23"): AgentProfile {
  return {
    id: variant === "0.100" ? "claude-agent-acp" : "claude-agent-acp-0.23",
    label: "Claude",
    turns: {
      // 0.23 holds the prompt response until its background tasks and their follow-up are done;
      // 0.100 answers at once, then runs a turn of its own when a task ends, closed by a marker.
      endsAtResponse: true,
      callsOutliveTurn: false,
      outlivingCallsReport: false,
      markers: variant === "0.100" ? "always" : "observed",
      replayOutlivesResponse: false,
    },
    turnSignals: variant === "0.100" ? ["turn_ended", "origin_marker", "prompt_response"] : ["held_response"],
    permissiveModes: ["bypassPermissions"],
    missingFileReadsAsEmpty: false,
    normalize: normalizeClaude,
    display: (tool, ctx) => markExcerpts(tool, buildDisplay(tool, ctx, CLAUDE_RULES)),
    isInternalUserText: (text) => INTERNAL.test(text),
    readInternal: readClaudeInternal,
    // Everything a subagent (the Task/Agent tool) reports carries the id of the call that started it.
    subagentParent: (fields) => {
      const id = asRecord(asRecord(fields._meta)?.claudeCode)?.parentToolUseId;
      return typeof id === "string" && id !== "" ? id : undefined;
    },
    pollParent: () => undefined,
    hasExitStatus: plainExitStatus,
  };
}

/** claude-agent-acp 0.100 and later (`@agentclientprotocol/claude-agent-acp`). */
export const claudeAgentProfile = claudeProfile("0.100");
/** claude-agent-acp before 0.100 (`@zed-industries/claude-agent-acp` 0.23). */
export const claudeAgent023Profile = claudeProfile("0.23");
