import type { ContentBlock, PlanEntry } from "@agentclientprotocol/sdk";
import { structuredPatch } from "diff";
import { displayOf } from "../session/profiles/display-of.js";
import type { ToolBlock } from "../session/profiles/profile.js";
import { displayStatus, type SessionState, type ToolCallView, type ToolDisplayStatus, type TranscriptItem } from "../session/state.js";
import { safeLine, safeOutput, safeText } from "../text/terminal-safe.js";

/** What the document says about itself besides the transcript. */
export interface ExportMeta {
  /** When it was exported (ms since epoch). */
  exportedAt: number;
  /** conch's version, for the footer line. */
  version?: string;
}

const STATUS_WORD: Record<ToolDisplayStatus, string> = {
  pending: "pending",
  in_progress: "running",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
  rejected: "rejected",
  stalled: "stalled",
  unknown: "unknown after resume",
  interrupted: "interrupted",
  ended_with_agent: "ended with the agent (no exit status)",
  background: "running in the agent's session",
  ended: "ended (the agent did not report how)",
};

const STATUS_ICON: Partial<Record<ToolDisplayStatus, string>> = {
  completed: "✓",
  failed: "✗",
  cancelled: "⊘",
  rejected: "⊘",
  interrupted: "⊘",
  ended_with_agent: "⊘",
};

const SGR = /\u001b\[[0-9;:]*m/g;

/** Program output as plain text: colours dropped, every other sequence already made a visible mark by the gate. */
function plainOutput(text: string): string {
  return safeOutput(text).replace(SGR, "").replace(/\t/g, "    ");
}

/** A fenced block that no line of `text` can close early: the fence is longer than any backtick run inside. */
export function fenced(text: string, info = ""): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text.replace(/\n+$/, "")}\n${fence}`;
}

/** Every line quoted (`> `), blank lines included so the quote stays one block. */
function quoted(text: string): string {
  return text
    .replace(/\n+$/, "")
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

/** Text inside `code` spans: backticks would end the span. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A path relative to the session cwd when it is inside it. */
function relative(path: string, cwd: string | undefined): string {
  if (!cwd) return path;
  const base = cwd.endsWith("/") ? cwd.slice(0, -1) : cwd;
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : path;
}

/** GNU numbering: an empty range names the line before it (`-0,0` for a new file). */
function range(start: number, count: number): string {
  return `${count === 0 ? start - 1 : start},${count}`;
}

/** A unified diff (`--- a/…`, `+++ b/…`, hunks) of an edit, for a ```diff block. */
export function unifiedDiff(path: string, oldText: string | null | undefined, newText: string): string {
  const isNew = oldText === null || oldText === undefined;
  const patch = structuredPatch(path, path, oldText ?? "", newText, "", "", { context: 3 });
  const lines = [isNew ? "--- /dev/null" : `--- a/${path}`, `+++ b/${path}`];
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`);
    for (const line of hunk.lines) lines.push(line.replace(/\r$/, ""));
  }
  return lines.join("\n");
}

function blockMarkdown(block: ToolBlock, state: SessionState): string | undefined {
  const cwd = state.info?.cwd;
  switch (block.type) {
    case "prose":
      return quoted(safeText(block.text));
    case "output":
      return block.text.trim() === "" ? undefined : fenced(plainOutput(block.text));
    case "media":
      return `*${safeLine(block.text)}*`;
    case "diff": {
      const path = safeLine(relative(block.path, cwd));
      return fenced(
        unifiedDiff(
          path,
          block.oldText === undefined || block.oldText === null ? block.oldText : safeText(block.oldText),
          safeText(block.newText),
        ),
        "diff",
      );
    }
    case "terminal": {
      const term = state.terminals[block.terminalId];
      if (!term || term.outputTail === "") return block.output?.trim() ? fenced(plainOutput(block.output), "text") : undefined;
      const exit = term.exited
        ? term.signal
          ? ` (${term.signal})`
          : term.exitCode !== null && term.exitCode !== undefined
            ? ` (exit ${term.exitCode})`
            : ""
        : " (still running)";
      const cut =
        term.outputBytes > term.outputTail.length
          ? `*… the first ${term.outputBytes - term.outputTail.length} characters are not kept*\n\n`
          : "";
      return `${cut}${fenced(plainOutput(term.outputTail), "text")}${exit ? `\n\n*terminal${exit}*` : ""}`;
    }
  }
}

function permissionWords(permission: ToolCallView["permission"]): string | undefined {
  if (!permission) return undefined;
  if (permission.outcome === "cancelled") return "permission cancelled";
  const by =
    permission.source === "policy"
      ? " by policy"
      : permission.rule
        ? ` by rule \`${safeLine(permission.rule.text)}\` ${safeLine(permission.rule.from)}`
        : permission.via === "attached"
          ? " from another terminal"
          : "";
  const word = { allow_once: "allowed once", allow_always: "always allowed", reject_once: "rejected", reject_always: "always rejected" }[
    permission.optionKind ?? ""
  ];
  return `${word ?? safeLine(permission.optionName ?? "answered")}${by}`;
}

/** One tool call: its title and status, the command it ran, where, then what it showed. */
export function toolMarkdown(tool: ToolCallView, state: SessionState): string {
  const display = displayOf(state, tool);
  const status = displayStatus(tool);
  const icon = STATUS_ICON[status] ?? "•";
  const facts = [tool.kind ?? "other", STATUS_WORD[status] ?? status, permissionWords(tool.permission)].filter(Boolean).join(" · ");
  const parts = [`**${icon} ${escapeInline(safeLine(display.title))}** · *${facts}*`];
  const locations = tool.locations.map((l) =>
    codeSpan(safeLine(`${relative(l.path, state.info?.cwd)}${typeof l.line === "number" ? `:${l.line}` : ""}`)),
  );
  if (locations.length) parts.push(locations.join(" "));
  if (display.command !== undefined && display.command.trim() !== display.title.trim())
    parts.push(fenced(`$ ${safeText(display.command)}`, "sh"));
  if (display.cwd !== undefined && display.cwd !== state.info?.cwd) parts.push(`in ${codeSpan(safeLine(display.cwd))}`);
  for (const block of display.blocks) {
    const md = blockMarkdown(block, state);
    if (md) parts.push(md);
  }
  // A subagent's calls, under the call that started it.
  const sub = (tool.subagentCalls ?? []).map((id) => state.toolCalls[id]).filter((c): c is ToolCallView => c !== undefined);
  if (sub.length)
    parts.push(
      sub
        .map(
          (c) =>
            `- ${STATUS_ICON[displayStatus(c)] ?? "•"} ${escapeInline(safeLine(displayOf(state, c).title))} · *${STATUS_WORD[displayStatus(c)]}*`,
        )
        .join("\n"),
    );
  return parts.join("\n\n");
}

/** Markdown's inline specials in a title, so `*` or `_` in a command line stays literal. */
function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, "\\$1");
}

function attachmentLines(blocks: ContentBlock[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.type === "resource_link") out.push(`- attached: ${codeSpan(safeLine(b.name || b.uri))} (${safeLine(b.uri)})`);
    else if (b.type === "image") out.push(`- attached: an image (${safeLine(b.mimeType)})`);
    else if (b.type === "resource") out.push(`- attached: ${codeSpan(safeLine((b.resource as { uri?: string }).uri ?? "a resource"))}`);
  }
  return out;
}

/** The plan as a checklist: done steps ticked, the running one marked. */
export function planMarkdown(entries: PlanEntry[]): string {
  const done = entries.filter((e) => e.status === "completed").length;
  const rows = entries.map((e) => {
    const text = escapeInline(safeLine(e.content));
    const mark = e.status === "completed" ? "x" : " ";
    const running = e.status === "in_progress" ? " *(in progress)*" : "";
    const high = e.priority === "high" ? " **(high)**" : "";
    return `- [${mark}] ${text}${running}${high}`;
  });
  return [`**Plan** · ${done}/${entries.length} done`, "", ...rows].join("\n");
}

const NOTICE_LABEL = { info: "Note", warning: "Warning", error: "Error" } as const;

function itemMarkdown(item: TranscriptItem, state: SessionState, first: boolean): string | undefined {
  switch (item.kind) {
    case "turn": {
      const label = item.origin === "agent" ? "\n\n*The agent started a turn on its own.*" : "";
      return first ? (label ? label.trim() : undefined) : `---${label}`;
    }
    case "user": {
      const text = safeText(item.text).replace(/\s+$/, "");
      if (item.internal) return `<details><summary>agent context</summary>\n\n${fenced(text, "text")}\n\n</details>`;
      const attachments = attachmentLines(item.blocks.slice(1));
      return [
        `### › ${escapeInline(text.split("\n")[0] || "(empty prompt)")}`,
        ...(text.includes("\n") ? ["", quoted(text)] : []),
        ...(attachments.length ? ["", ...attachments] : []),
      ].join("\n");
    }
    case "agent": {
      const text = safeText(item.text).trim();
      return text === "" ? undefined : text;
    }
    case "thought": {
      const text = safeText(item.text).trim();
      if (text === "") return undefined;
      return `<details><summary>Thinking</summary>\n\n${quoted(text)}\n\n</details>`;
    }
    case "tool": {
      const tool = state.toolCalls[item.toolCallId];
      return tool ? toolMarkdown(tool, state) : undefined;
    }
    case "plan":
      return planMarkdown(item.entries);
    case "interrupted":
      return "*⊘ interrupted*";
    case "no_reply":
      return "*(the agent ended the turn without a reply)*";
    case "notice":
      return quoted(`**${NOTICE_LABEL[item.level] ?? "Note"}:** ${safeText(item.text)}`);
    case "unknown":
      return `*An update conch does not know: ${codeSpan(safeLine(item.updateKind))}*`;
    case "shell": {
      // The user's own command: theirs, not sent to the agent unless they attached it.
      const output = blockMarkdown({ type: "terminal", terminalId: item.terminalId }, state);
      return [`### ! ${codeSpan(safeLine(item.command))}`, "*your own command*", ...(output ? [output] : [])].join("\n\n");
    }
  }
}

/** The title of a session: the agent's, else the first prompt's first line. */
export function sessionTitle(state: SessionState): string {
  const prompt = state.items.find((i): i is Extract<TranscriptItem, { kind: "user" }> => i.kind === "user" && !i.internal);
  const title = state.title ?? prompt?.text.split("\n")[0] ?? "";
  return safeLine(title).trim() || "conch session";
}

function headerLines(state: SessionState, meta: ExportMeta): string[] {
  const info = state.info;
  const agent = state.agent?.info ?? info?.agentInfo;
  const agentName = agent ? `${agent.title ?? agent.name}${agent.version ? ` ${agent.version}` : ""}` : info?.agentName;
  const started = state.turns[0]?.startedAt;
  const lines = [`# ${escapeInline(sessionTitle(state))}`, ""];
  if (info?.sessionId) lines.push(`- Session: ${codeSpan(safeLine(info.sessionId))}`);
  if (agentName) lines.push(`- Agent: ${escapeInline(safeLine(agentName))}`);
  if (info?.cwd) lines.push(`- Directory: ${codeSpan(safeLine(info.cwd))}`);
  if (started && started > 1e12) lines.push(`- Started: ${new Date(started).toISOString()}`);
  lines.push(`- Exported: ${new Date(meta.exportedAt).toISOString()}${meta.version ? ` by conch ${meta.version}` : ""}`);
  return lines;
}

/**
 * The session as a Markdown document: prompts as headings, answers as the agent wrote them,
 * thoughts collapsed, tool calls with their commands, diffs (```diff) and outputs (fenced,
 * verbatim), plans as checklists, conch's notices as quotes. Every string from the agent goes
 * through the terminal-safe gate, so the file holds no escape sequence.
 */
export function transcriptMarkdown(state: SessionState, meta: ExportMeta): string {
  const parts = [headerLines(state, meta).join("\n")];
  let first = true;
  for (const item of state.items) {
    const md = itemMarkdown(item, state, first);
    if (item.kind === "turn") first = false;
    if (md !== undefined && md !== "") parts.push(md);
  }
  return `${parts.join("\n\n")}\n`;
}
