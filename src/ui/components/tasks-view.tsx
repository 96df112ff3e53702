import React from "react";
import { Box, Text } from "ink";
import type { Task } from "../../session/tasks.js";
import type { Terminal } from "../../terminals/terminal.js";
import { tasksViewRows } from "../render/task-rows.js";

/** Props of the tasks view. */
export interface TasksViewProps {
  tasks: readonly Task[];
  selected: number;
  width: number;
  maxRows: number;
  now: number;
  terminal?: (id: string) => Terminal | undefined;
  /** A stop of the selected task waits for y. */
  confirmingStop: boolean;
  /** The selected task's whole pane is shown. */
  opened: boolean;
  /** The keys this view takes, from the key table. */
  hint: string;
}

/** Every piece of work of the session, alive or recently ended, with what can be done about each. */
export function TasksView(props: TasksViewProps): React.ReactElement {
  const rows = tasksViewRows(props.tasks, {
    width: props.width,
    selected: props.selected,
    now: props.now,
    terminal: props.terminal,
    confirmingStop: props.confirmingStop,
    opened: props.opened,
    maxRows: Math.max(4, props.maxRows - 1),
  });
  return (
    <Box flexDirection="column" width={props.width} marginTop={1}>
      <Text>{rows.join("\n")}</Text>
      <Text dimColor wrap="truncate-end">{`  ${props.hint}`}</Text>
    </Box>
  );
}
