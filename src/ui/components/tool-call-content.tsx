import React from "react";
import { Box, Text } from "ink";
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { contentText } from "../../session/content-text.js";
import type { TerminalView } from "../../session/state.js";
import type { Terminal } from "../../terminals/terminal.js";
import { DiffView } from "./diff-view.js";
import { Markdown } from "./markdown.js";
import { TerminalPane } from "./terminal-pane.js";
import { clipMarkdown, relativePath, tailLines, withoutCwdPrefix } from "./tool-call-fields.js";

/** Lines of text content shown before "N more lines" when collapsed. */
export const TEXT_LINES = 10;
/** Diff lines shown when collapsed. */
export const DIFF_LINES = 20;
/** Rows of a running terminal, and of a finished one when collapsed. */
export const LIVE_TERMINAL_ROWS = 10;
export const DONE_TERMINAL_ROWS = 3;
const EXPANDED_TERMINAL_ROWS = 40;

/** Props of one tool call content item. */
export interface ToolCallContentProps {
  content: ToolCallContent;
  width: number;
  expanded: boolean;
  cwd?: string;
  /** The session's record of terminals, for output when no live screen exists. */
  terminals: Record<string, TerminalView>;
  terminal?: (id: string) => Terminal | undefined;
  /** Title for a terminal pane (the command). */
  title?: string;
  startedAt?: number;
}

/** One content item of a tool call: text (markdown), a diff, or a terminal. */
export function ToolCallContentView(props: ToolCallContentProps): React.ReactElement | null {
  const { content, width, expanded } = props;
  switch (content.type) {
    case "content": {
      const text = withoutCwdPrefix(contentText(content.content));
      if (text.trim() === "") return null;
      if (content.content.type !== "text") return <Text dimColor>{text}</Text>;
      return <ClippedMarkdown text={text} width={width} expanded={expanded} />;
    }
    case "diff":
      return (
        <DiffView
          path={relativePath(content.path, props.cwd)}
          oldText={content.oldText}
          newText={content.newText}
          width={width}
          maxLines={expanded ? undefined : DIFF_LINES}
        />
      );
    case "terminal":
      return <TerminalContent {...props} terminalId={content.terminalId} />;
    default:
      return null;
  }
}

/** Markdown cut to its first lines unless expanded. */
export function ClippedMarkdown(props: { text: string; width: number; expanded: boolean; maxLines?: number }) {
  const { text, width, expanded } = props;
  const clipped = expanded ? { text, hidden: 0 } : clipMarkdown(text, props.maxLines ?? TEXT_LINES);
  return (
    <Box flexDirection="column">
      <Markdown text={clipped.text} width={width} />
      {clipped.hidden > 0 ? <Text dimColor>{`… ${clipped.hidden} more line${clipped.hidden === 1 ? "" : "s"}`}</Text> : null}
    </Box>
  );
}

function TerminalContent(props: ToolCallContentProps & { terminalId: string }) {
  const live = props.terminal?.(props.terminalId);
  const known = props.terminals[props.terminalId];
  if (live) {
    const done = live.exitStatus !== null;
    const rows = props.expanded ? EXPANDED_TERMINAL_ROWS : done ? DONE_TERMINAL_ROWS : LIVE_TERMINAL_ROWS;
    return (
      <TerminalPane
        terminal={live}
        rows={rows}
        width={props.width}
        focused={false}
        title={known?.command ?? props.title}
        startedAt={props.startedAt}
      />
    );
  }
  if (!known || known.outputTail === "") return null;
  const tail = tailLines(known.outputTail, props.expanded ? Infinity : known.exited ? DONE_TERMINAL_ROWS : LIVE_TERMINAL_ROWS);
  return (
    <Box flexDirection="column">
      {tail.hidden > 0 ? <Text dimColor>{`… ${tail.hidden} earlier line${tail.hidden === 1 ? "" : "s"}`}</Text> : null}
      <Text>{tail.text}</Text>
    </Box>
  );
}

/** Whether an item would show anything; empty ones let the card fall back to `rawOutput`. */
export function contentShowsSomething(
  content: ToolCallContent,
  terminals: Record<string, TerminalView>,
  terminal?: (id: string) => Terminal | undefined,
): boolean {
  switch (content.type) {
    case "content":
      return withoutCwdPrefix(contentText(content.content)).trim() !== "";
    case "diff":
      return true;
    case "terminal":
      return terminal?.(content.terminalId) !== undefined || (terminals[content.terminalId]?.outputTail ?? "") !== "";
    default:
      return false;
  }
}

/**
 * The program output a call's content already shows (fenced code and terminal output, not prose),
 * to tell whether `rawOutput` would only repeat it.
 */
export function shownOutput(content: ToolCallContent[], terminals: Record<string, TerminalView>): string {
  return content
    .map((c) => {
      if (c.type === "terminal") return terminals[c.terminalId]?.outputTail ?? "";
      if (c.type !== "content") return "";
      const text = contentText(c.content);
      return /(^|\n)\s*(```|~~~)/.test(text) ? text : "";
    })
    .join("\n");
}
