import React from "react";
import { Box, Text } from "ink";
import type { ToolKind } from "@agentclientprotocol/sdk";
import { displayStatus, type SessionState, type ToolCallView } from "../../session/state.js";
import type { Terminal } from "../../terminals/terminal.js";
import { KIND_ICONS, STATUS_LOOK, color } from "./theme.js";
import { displayOf } from "../../session/profiles/display-of.js";
import { ToolBlockView } from "./tool-call-content.js";
import { permissionLabel, relativePath } from "./tool-call-fields.js";
import { useSpinner } from "./use-spinner.js";

/** Props of a tool call card. */
export interface ToolCallCardProps {
  tool: ToolCallView;
  state: SessionState;
  width: number;
  /** Show everything: raw input, all output lines, the whole diff, a tall terminal. */
  expanded?: boolean;
  terminal?: (id: string) => Terminal | undefined;
}

/** One tool call: kind, title, status, where it works, what it runs, and what came back. */
export const ToolCallCard = React.memo(function ToolCallCard(props: ToolCallCardProps): React.ReactElement {
  const { tool, state, width } = props;
  const expanded = props.expanded === true;
  const cwd = state.info?.cwd;
  const status = displayStatus(tool);
  const look = STATUS_LOOK[status] ?? STATUS_LOOK.unknown;
  const spinner = useSpinner(status === "in_progress");
  const awaiting = state.permissions.some((p) => p.toolCallId === tool.toolCallId);
  const kind: ToolKind = tool.kind ?? "other";
  const inner = Math.max(10, width - 2);
  const display = displayOf(state, tool);

  const showCommand = display.command !== undefined && display.command.trim() !== display.title.trim();
  const showCwd = display.cwd !== undefined && display.cwd !== cwd;
  const diffPaths = new Set(display.blocks.flatMap((b) => (b.type === "diff" ? [b.path] : [])));
  const locations = tool.locations.filter((l) => !diffPaths.has(l.path) || typeof l.line === "number");
  const permission = permissionLabel(tool.permission);
  const termCommand = display.command ?? (kind === "execute" ? display.title : undefined);

  return (
    <Box flexDirection="column" width={width}>
      <Box flexDirection="row">
        <Box width={2} flexShrink={0}>
          <Text color={color(look.role)}>{status === "in_progress" ? spinner : look.icon}</Text>
        </Box>
        <Box width={2} flexShrink={0}>
          <Text dimColor>{KIND_ICONS[kind] ?? KIND_ICONS.other}</Text>
        </Box>
        <Box flexGrow={1} flexShrink={1}>
          <Text bold>{display.title}</Text>
        </Box>
        {look.word ? (
          <Box flexShrink={0} marginLeft={1}>
            <Text color={color(look.role)}>{look.word}</Text>
          </Box>
        ) : null}
      </Box>
      <Box flexDirection="column" paddingLeft={2} width={width}>
        {locations.length > 0 ? (
          <Text dimColor wrap="truncate-end">
            {locations.map((l) => `${relativePath(l.path, cwd)}${typeof l.line === "number" ? `:${l.line}` : ""}`).join("  ")}
          </Text>
        ) : null}
        {showCommand ? (
          <Text>
            <Text color={color("accent")}>$ </Text>
            <Text>{display.command}</Text>
          </Text>
        ) : null}
        {showCwd ? <Text dimColor>{`in ${display.cwd}`}</Text> : null}
        {expanded && tool.rawInput !== undefined ? <RawJson label="input" value={tool.rawInput} /> : null}
        {display.blocks.map((block, i) => (
          <ToolBlockView
            key={i}
            block={block}
            width={inner}
            expanded={expanded}
            cwd={cwd}
            terminals={state.terminals}
            terminal={props.terminal}
            title={termCommand}
            startedAt={tool.startedAt > 1e12 ? tool.startedAt : undefined}
          />
        ))}
        {expanded && tool.rawOutput !== undefined && display.blocks.length === 0 ? <RawJson label="output" value={tool.rawOutput} /> : null}
        {awaiting ? <Text color={color("warning")}>awaiting permission</Text> : null}
        {permission ? (
          <Text color={color(permission.allowed ? "success" : "error")} dimColor={permission.allowed}>
            {permission.text}
          </Text>
        ) : null}
      </Box>
    </Box>
  );
});

function RawJson({ label, value }: { label: string; value: unknown }) {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    text = String(value);
  }
  return (
    <Box flexDirection="column">
      <Text dimColor>{`${label}:`}</Text>
      <Text dimColor>{text}</Text>
    </Box>
  );
}
