import { describe, expect, it } from "vitest";
import type { Task } from "../../../src/session/tasks.js";
import { tasksViewRows } from "../../../src/ui/render/task-rows.js";
import { plainRows } from "./plain-rows.js";

const now = 1_000_000;
const running: Task = {
  id: "term:a",
  kind: "command",
  label: "sleep 1; echo tick; sleep 6; echo done",
  turnId: "t1",
  turn: "Run the slow command",
  startedAt: now - 65_000,
  running: true,
  pids: [4242],
  atQuit: "stopped with the agent when you quit",
  stop: { kind: "processes", members: [{ pid: 4242, start: "1" }] },
};
const ended: Task = { id: "term:b", kind: "shell", label: "make test", endedAt: now - 3_000, running: false, how: "exit 2" };

describe("the tasks view's rows", () => {
  it("each task on a line, the selected one opened up: what it is, its turn, its pid, what conch does at quit; a stop asks first", () => {
    const rows = plainRows(tasksViewRows([running, ended], { width: 90, selected: 0, now, maxRows: 20, confirmingStop: true }));
    expect(rows.split("\n")).toEqual([
      "Tasks · 1 running · 1 ended",
      expect.stringMatching(/^› ◐ \$ sleep 1; echo tick; sleep 6; echo done +running 1m05s$/),
      // Wrapped, never cut: what conch does at quit is read whole.
      "      the agent's command · from “Run the slow command” · pid 4242 · stopped with the",
      "      agent when you quit",
      "      stop the agent's command? y stops it (SIGTERM, then SIGKILL), any other key keeps it",
      expect.stringMatching(/^ {2}■ ! make test +exit 2 · 3s ago$/),
    ]);
  });

  it("says so when there is nothing", () => {
    expect(plainRows(tasksViewRows([], { width: 80, selected: 0, now, maxRows: 10 }))).toBe(
      "Tasks · 0 running · 0 ended\n  nothing runs in this session, and nothing ran in the background",
    );
  });
});
