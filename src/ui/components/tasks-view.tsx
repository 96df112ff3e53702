import React from "react";
import { Box, Text } from "ink";
import type { Task } from "../../session/tasks.js";
import type { Terminal } from "../../terminals/terminal.js";
import { tasksViewRows } from "../render/task-rows.js";
import { footer, type FooterPart } from "../shell/key-bindings.js";
import type { TasksViewState } from "../shell/shell-state.js";

/** Props of the tasks view. */
export interface TasksViewProps {
  tasks: readonly Task[];
  /** The selected task, within the list. */
  selected: number;
  /** The view's state: a stop waiting for y, a pane opened. */
  view: TasksViewState;
  width: number;
  maxRows: number;
  terminal?: (id: string) => Terminal | undefined;
}

/** Every piece of work of the session, alive or recently ended, with what can be done about each. */
export function TasksView(props: TasksViewProps): React.ReactElement {
  const rows = tasksViewRows(props.tasks, {
    width: props.width,
    selected: props.selected,
    // The list is read again at least once a second while the view is open: the times move with it.
    now: Date.now(),
    terminal: props.terminal,
    confirmingStop: props.view.confirming !== null,
    opened: props.view.opened !== null,
    maxRows: Math.max(4, props.maxRows - 1),
  });
  // `a` only means something on your own command.
  const own = props.tasks[props.selected]?.kind === "shell";
  const keys: FooterPart[] = ["move-selection", "open-task", "stop-task", "find-task-card"];
  if (own) keys.push("attach-task-output");
  keys.push("leave-tasks");
  return (
    <Box flexDirection="column" width={props.width} marginTop={1}>
      <Text>{rows.join("\n")}</Text>
      <Text dimColor wrap="truncate-end">{`  ${footer(keys)}`}</Text>
    </Box>
  );
}
