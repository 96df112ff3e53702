import { contentText } from "../content-text.js";
import type { ToolCallView } from "../state.js";
import type { DisplayContext, ToolBlock, ToolDisplay } from "./profile.js";
import { asRecord } from "../../json/record.js";
import { shellQuote } from "../../text/shell-quote.js";

/** How one agent family spells a tool call; each rule has a plain-ACP default. */
export interface DisplayRules {
  /** The command an execute call runs. */
  command(tool: ToolCallView): string | undefined;
  cwd(tool: ToolCallView): string | undefined;
  /** A text content item as a block; undefined drops it (talk the display says otherwise). */
  textBlock(text: string, tool: ToolCallView): ToolBlock | undefined;
  /** Readable output hidden in `rawOutput`, for calls whose content does not show it. */
  rawOutputText(rawOutput: unknown): string | undefined;
  title(tool: ToolCallView): string;
}

const SHELLS = /(^|\/)(ba|z|da|k|fi)?sh$/;

/**
 * A command from `rawInput.command` (a string, or an argv array); a `bash -lc "script"` wrapper is
 * unwrapped to the script, which is what the user reads.
 */
export function commandFrom(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.length > 0 && value.every((c) => typeof c === "string")) {
    const argv = value as string[];
    if (argv.length === 3 && SHELLS.test(argv[0]) && /^-\w*c$/.test(argv[1])) return argv[2];
    return argv.map(shellQuote).join(" ");
  }
  return undefined;
}

/** A text that is one fenced code block, unwrapped: the fence only marks it as program output. */
export function unfence(text: string): string | undefined {
  const m = /^\s*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(text);
  return m ? m[2] : undefined;
}

/** The plain-ACP rules: `rawInput.command`/`cwd`, fenced text is output, other text is prose. */
export const PLAIN_RULES: DisplayRules = {
  command: (tool) => commandFrom(asRecord(tool.rawInput)?.command),
  cwd: (tool) => {
    const cwd = asRecord(tool.rawInput)?.cwd;
    return typeof cwd === "string" && cwd !== "" ? cwd : undefined;
  },
  textBlock: (text) => {
    if (text.trim() === "") return undefined;
    const code = unfence(text);
    return code !== undefined ? { type: "output", text: code } : { type: "prose", text };
  },
  rawOutputText: (rawOutput) => {
    if (typeof rawOutput === "string") return rawOutput;
    const r = asRecord(rawOutput);
    if (!r) return undefined;
    for (const key of ["stdout", "output", "result", "error"]) {
      const v = r[key];
      if (typeof v === "string" && v.trim() !== "") return v;
    }
    return undefined;
  },
  title: (tool) => tool.title || tool.toolCallId,
};

function shows(block: ToolBlock, ctx: DisplayContext): boolean {
  if (block.type !== "terminal") return true;
  const t = ctx.terminals[block.terminalId];
  return t !== undefined && (t.outputTail !== "" || !t.exited);
}

const squash = (t: string) => t.replace(/\s+/g, " ").trim();

/**
 * Builds what a tool call shows from its content, with `rawOutput` added when the content does not
 * already show it: when nothing shows, or for a command whose content is only talk.
 */
export function buildDisplay(tool: ToolCallView, ctx: DisplayContext, rules: DisplayRules): ToolDisplay {
  const blocks: ToolBlock[] = [];
  for (const c of tool.content) {
    if (!c || typeof c !== "object") continue;
    if (c.type === "diff") blocks.push({ type: "diff", path: c.path, oldText: c.oldText, newText: c.newText });
    else if (c.type === "terminal") blocks.push({ type: "terminal", terminalId: c.terminalId });
    else if (c.type === "content") {
      if (c.content.type !== "text") {
        blocks.push({ type: "media", text: contentText(c.content) });
        continue;
      }
      const block = rules.textBlock(c.content.text, tool);
      if (block) blocks.push(block);
    }
  }
  const command = tool.kind === "execute" ? rules.command(tool) : undefined;
  const raw = rules.rawOutputText(tool.rawOutput);
  if (raw !== undefined && raw.trim() !== "") {
    const visible = blocks.filter((b) => shows(b, ctx));
    const shownOutput = visible
      .map((b) => (b.type === "output" ? b.text : b.type === "terminal" ? (ctx.terminals[b.terminalId]?.outputTail ?? "") : ""))
      .join("\n");
    const repeats = squash(shownOutput).includes(squash(raw));
    if (visible.length === 0 || (tool.kind === "execute" && !repeats)) {
      // A pane whose terminal never got the bytes (codex 0.16 reports them only in rawOutput) shows
      // them itself: one pane, not an empty one with the output under it.
      const empty = blocks.findIndex((b) => b.type === "terminal" && !ctx.terminals[b.terminalId]?.outputTail);
      if (empty >= 0) blocks[empty] = { ...(blocks[empty] as Extract<ToolBlock, { type: "terminal" }>), output: raw };
      else blocks.push({ type: "output", text: raw });
    }
  }
  return { title: rules.title(tool), command, cwd: tool.kind === "execute" ? rules.cwd(tool) : undefined, blocks };
}
