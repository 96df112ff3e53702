import React from "react";
import { Box, Text } from "ink";
import type { PlanEntry } from "@agentclientprotocol/sdk";
import { color, PLAN_ICONS } from "./theme.js";

/** Props of a plan checklist. */
export interface PlanViewProps {
  entries: PlanEntry[];
  width: number;
}

/** The agent's plan as a checklist: the running step highlighted, done steps dimmed and struck through. */
export const PlanView = React.memo(function PlanView({ entries, width }: PlanViewProps): React.ReactElement {
  const done = entries.filter((e) => e.status === "completed").length;
  return (
    <Box flexDirection="column" width={width}>
      <Text>
        <Text bold>Plan</Text>
        <Text dimColor>{` ${done}/${entries.length} done`}</Text>
      </Text>
      {entries.map((entry, i) => (
        <PlanRow key={i} entry={entry} />
      ))}
    </Box>
  );
});

function PlanRow({ entry }: { entry: PlanEntry }) {
  const icon = PLAN_ICONS[entry.status] ?? PLAN_ICONS.pending;
  const running = entry.status === "in_progress";
  const completed = entry.status === "completed";
  const low = entry.priority === "low";
  return (
    <Box flexDirection="row">
      <Box width={2} flexShrink={0}>
        <Text color={running ? color("accent") : completed ? color("success") : undefined} dimColor={completed}>
          {icon}
        </Text>
      </Box>
      {/* Only "high" gets a mark: agents that send every entry as "medium" would make any other mark noise. */}
      {entry.priority === "high" ? (
        <Box width={2} flexShrink={0}>
          <Text color={color("error")} bold>
            !
          </Text>
        </Box>
      ) : null}
      <Text
        bold={running}
        color={running ? color("accent") : undefined}
        dimColor={completed || (low && !running)}
        strikethrough={completed}
      >
        {entry.content}
      </Text>
    </Box>
  );
}
