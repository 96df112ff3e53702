import React from "react";
import { Box, Text } from "ink";
import type { ToolBlock } from "../../session/profiles/profile.js";
import type { TerminalView } from "../../session/state.js";
import type { Terminal } from "../../terminals/terminal.js";
import { DiffView } from "./diff-view.js";
import { Markdown } from "./markdown.js";
import { TerminalPane } from "./terminal-pane.js";
import { clipMarkdown, relativePath, stripControl, tailLines } from "./tool-call-fields.js";

/** Lines of text content shown before "N more lines" when collapsed. */
export const TEXT_LINES = 10;
/** Diff lines shown when collapsed. */
export const DIFF_LINES = 20;
/** Rows of a running terminal, and of a finished one when collapsed. */
export const LIVE_TERMINAL_ROWS = 10;
export const DONE_TERMINAL_ROWS = 3;
const EXPANDED_TERMINAL_ROWS = 40;

/** Props of one block of what a tool call shows. */
export interface ToolBlockProps {
  block: ToolBlock;
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

/** One block of a tool call: the agent's words (markdown), output (verbatim), a diff, or a terminal. */
export function ToolBlockView(props: ToolBlockProps): React.ReactElement | null {
  const { block, width, expanded } = props;
  switch (block.type) {
    case "prose":
      return <ClippedMarkdown text={block.text} width={width} expanded={expanded} />;
    case "output":
      return <ClippedOutput text={block.text} expanded={expanded} />;
    case "media":
      return <Text dimColor>{block.text}</Text>;
    case "diff":
      return (
        <DiffView
          path={relativePath(block.path, props.cwd)}
          oldText={block.oldText}
          newText={block.newText}
          width={width}
          maxLines={expanded ? undefined : DIFF_LINES}
        />
      );
    case "terminal":
      return <TerminalContent {...props} terminalId={block.terminalId} />;
  }
}

/** Markdown cut to its first lines unless expanded. */
export function ClippedMarkdown(props: { text: string; width: number; expanded: boolean; maxLines?: number }) {
  const { text, width, expanded } = props;
  const clipped = expanded ? { text, hidden: 0 } : clipMarkdown(text, props.maxLines ?? TEXT_LINES);
  return (
    <Box flexDirection="column">
      <Markdown text={clipped.text} width={width} />
      <MoreLines hidden={clipped.hidden} />
    </Box>
  );
}

/** Program output, verbatim (never markdown), its first lines unless expanded. */
export function ClippedOutput(props: { text: string; expanded: boolean; maxLines?: number }) {
  const lines = stripControl(props.text).replace(/\n+$/, "").split("\n");
  const max = props.expanded ? Infinity : (props.maxLines ?? TEXT_LINES);
  const shown = lines.length > max ? lines.slice(0, max) : lines;
  return (
    <Box flexDirection="column">
      <Text>{shown.join("\n")}</Text>
      <MoreLines hidden={lines.length - shown.length} />
    </Box>
  );
}

function MoreLines({ hidden }: { hidden: number }) {
  return hidden > 0 ? <Text dimColor>{`… ${hidden} more line${hidden === 1 ? "" : "s"}`}</Text> : null;
}

function TerminalContent(props: ToolBlockProps & { terminalId: string }) {
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
