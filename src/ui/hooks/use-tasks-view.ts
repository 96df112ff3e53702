import { useRef, type Dispatch } from "react";
import type { SessionState } from "../../session/state.js";
import type { Task } from "../../session/tasks.js";
import type { SessionPort } from "../session-port.js";
import { taskCardSearch } from "../search/task-card.js";
import { commandFor } from "../shell/key-bindings.js";
import type { Panel, ShellAction, TasksViewState } from "../shell/shell-state.js";
import type { Composer } from "./use-composer.js";
import { useKeypress } from "./use-keypress.js";
import { useTasks } from "./use-tasks.js";

/** What the tasks view's keys need from the shell. */
export interface TasksViewOptions {
  port: SessionPort;
  state: SessionState;
  view: TasksViewState | null;
  active: boolean;
  /** The client terminals still running: a task in one of them opens as a pane that takes keys. */
  running: readonly string[];
  dispatch: Dispatch<ShellAction>;
  show(lines: string, tone?: Panel["tone"]): void;
  /** Puts the output of your own command in the next message. */
  composer: Pick<Composer, "attachOutput">;
}

/**
 * The tasks view's list and keys: ↑↓ choose, Enter opens the task's pane (a terminal conch runs takes
 * the keys, another shows its whole screen), s asks to stop it and y stops it (the orchestrator does:
 * `stopTask`), f shows its card in the search view, a attaches the output of your own command to
 * the next message (as `!!` does), Esc closes the view.
 */
export function useTasksView(opts: TasksViewOptions): { tasks: Task[]; selected: number } {
  const { port, view, dispatch, show } = opts;
  const { tasks, refresh } = useTasks(port, opts.state, view !== null);
  const selected = view ? Math.min(view.selected, Math.max(0, tasks.length - 1)) : 0;
  // Keys of one read come before React draws again (↓ then s): what they change is read here, not from props.
  const live = useRef<Pick<TasksViewState, "selected" | "confirming">>({ selected: 0, confirming: null });
  if (!view) live.current = { selected: 0, confirming: null };
  const select = (index: number) => {
    live.current = { selected: index, confirming: null };
    dispatch({ type: "tasks-selected", index });
  };
  const confirm = (taskId: string | null) => {
    live.current = { ...live.current, confirming: taskId };
    dispatch({ type: "task-stop-asked", taskId });
  };

  const stop = (t: Task) => {
    confirm(null);
    void port.stopTask(t.id).then((why) => {
      if (why) show(why, "error");
      refresh();
    });
  };

  useKeypress(
    (input, key, raw) => {
      if (!view) return false;
      const command = commandFor("tasks", input, key, raw);
      const { confirming } = live.current;
      // A stop waits for y; any other key keeps the task (and does nothing else).
      if (confirming) {
        const asked = tasks.find((t) => t.id === confirming);
        if (command === "confirm-stop" && asked) stop(asked);
        else confirm(null);
        return true;
      }
      const at = Math.min(live.current.selected, Math.max(0, tasks.length - 1));
      const task: Task | undefined = tasks[at];
      switch (command) {
        case "move-selection":
          select(Math.max(0, Math.min(tasks.length - 1, at + (key.upArrow ? -1 : 1))));
          return true;
        case "open-task":
          if (!task) return true;
          if (task.terminalId && opts.running.includes(task.terminalId)) dispatch({ type: "terminal-focused", id: task.terminalId });
          else if (task.terminalId) dispatch({ type: "task-pane-toggled", taskId: task.id });
          else show(`\`${task.label}\` has no pane of conch's: its output is the agent's to show`);
          return true;
        case "stop-task":
          if (!task) return true;
          if (!task.running) show(`\`${task.label}\` has already ended`);
          else if (!task.stop) show(`conch cannot stop \`${task.label}\`: it found no process of it to signal`, "error");
          else confirm(task.id);
          return true;
        case "find-task-card": {
          const card = task ? taskCardSearch(opts.state, task) : undefined;
          if (!task) return true;
          if (!card) show(`\`${task.label}\` has no card in the transcript`);
          else {
            dispatch({ type: "tasks-closed" });
            dispatch({ type: "search-opened", ...card });
          }
          return true;
        }
        case "attach-task-output":
          if (!task) return true;
          if (task.kind !== "shell" || !task.terminalId)
            show(`only your own commands' output can be attached; \`${task.label}\` is the agent's`);
          else {
            dispatch({ type: "tasks-closed" });
            opts.composer.attachOutput(task.label, task.terminalId);
          }
          return true;
        case "leave-tasks":
          // What the view said (a stop refused) goes with it: a second Esc at the input would cancel the turn.
          dispatch({ type: "messages-cleared" });
          dispatch({ type: "tasks-closed" });
          return true;
        default:
          return false;
      }
    },
    { isActive: opts.active },
  );
  return { tasks, selected };
}
