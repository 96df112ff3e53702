import React from "react";
import { Box, Text } from "ink";
import type { SessionState, TranscriptItem } from "../../session/state.js";
import type { Terminal } from "../../terminals/terminal.js";
import { Markdown } from "./markdown.js";
import { NoticeView } from "./notice-view.js";
import { PlanView } from "./plan-view.js";
import { ThoughtView } from "./thought-view.js";
import { ToolCallCard } from "./tool-call-card.js";
import { compactJson } from "./tool-call-fields.js";
import { USER_PROMPT, color } from "./theme.js";

/** Props of one transcript item. */
export interface TranscriptItemProps {
  item: TranscriptItem;
  state: SessionState;
  width: number;
  /** Still streaming: markdown re-parses only its last block. */
  live: boolean;
  /** Show collapsed parts in full (thoughts, tool output, raw input). */
  expanded?: boolean;
  /** Resolves a terminal id to its live screen; without it terminals show their recorded output. */
  terminal?: (id: string) => Terminal | undefined;
}

/** Renders one transcript item by its kind. */
export const TranscriptItemView = React.memo(function TranscriptItemView(
  props: TranscriptItemProps,
): React.ReactElement | null {
  const { item, state, width, live, expanded } = props;
  switch (item.kind) {
    case "turn":
      return <TurnDivider origin={item.origin} history={item.history} width={width} />;
    case "user":
      return <UserMessage text={item.text} internal={item.internal === true} width={width} expanded={expanded === true} />;
    case "agent":
      return <Markdown text={item.text} width={width} live={live} />;
    case "thought":
      return <ThoughtView text={item.text} width={width} expanded={expanded} />;
    case "tool": {
      const tool = state.toolCalls[item.toolCallId];
      if (!tool) return <Text dimColor>{`tool call ${item.toolCallId}`}</Text>;
      return <ToolCallCard tool={tool} state={state} width={width} expanded={expanded} terminal={props.terminal} />;
    }
    case "plan":
      return <PlanView entries={item.entries} width={width} />;
    case "notice":
      return <NoticeView level={item.level} text={item.text} width={width} />;
    case "unknown":
      return (
        <Box flexDirection="column" width={width}>
          <Text dimColor>{`unknown update ${item.updateKind}`}</Text>
          <Text dimColor wrap="truncate-end">
            {compactJson(item.raw, expanded ? 10_000 : Math.max(20, width * 2))}
          </Text>
        </Box>
      );
    default:
      return null;
  }
}, sameItemView);

/**
 * The state changes on every event; an item re-renders only when what it shows changed: its own
 * record, or for a tool call the call, its terminal, the pending permissions and the cwd.
 */
function sameItemView(a: TranscriptItemProps, b: TranscriptItemProps): boolean {
  if (a.item !== b.item || a.width !== b.width || a.live !== b.live || a.expanded !== b.expanded || a.terminal !== b.terminal) {
    return false;
  }
  if (a.item.kind !== "tool") return true;
  const id = a.item.toolCallId;
  const before = a.state.toolCalls[id];
  const after = b.state.toolCalls[id];
  if (before !== after) return false;
  if (a.state.permissions !== b.state.permissions || a.state.info?.cwd !== b.state.info?.cwd) return false;
  const terminalIds = new Set<string>(after?.terminalId ? [after.terminalId] : []);
  for (const c of after?.content ?? []) if (c.type === "terminal") terminalIds.add(c.terminalId);
  for (const t of terminalIds) if (a.state.terminals[t] !== b.state.terminals[t]) return false;
  return true;
}

function TurnDivider({ origin, history, width }: { origin: string; history: boolean; width: number }) {
  const label = origin === "agent" ? "agent started a turn" : origin === "history" || history ? "history" : "";
  const rule = label ? `── ${label} ` : "";
  return (
    <Text dimColor wrap="truncate-end">
      {rule + "─".repeat(Math.max(0, width - rule.length))}
    </Text>
  );
}

function UserMessage({ text, internal, width, expanded }: { text: string; internal: boolean; width: number; expanded: boolean }) {
  if (internal && !expanded) {
    // Context the agent replays as a user message: one line is enough to know it is there.
    const first = text.trim().split("\n")[0] ?? "";
    return (
      <Text dimColor wrap="truncate-end">
        {`${USER_PROMPT} (agent context) ${first}`}
      </Text>
    );
  }
  return (
    <Box flexDirection="row" width={width}>
      <Box width={2} flexShrink={0}>
        <Text color={color("user")} bold>
          {USER_PROMPT}
        </Text>
      </Box>
      <Text color={internal ? undefined : color("user")} dimColor={internal}>
        {text}
      </Text>
    </Box>
  );
}
