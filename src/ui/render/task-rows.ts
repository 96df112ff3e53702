import type { Task } from "../../session/tasks.js";
import type { Terminal } from "../../terminals/terminal.js";
import { safeLine } from "../../text/terminal-safe.js";
import { paint } from "./style.js";
import { cellWidth, hang, truncateRow } from "./text.js";

/** What a task's row says of its kind, as a glyph. */
const KIND_MARK: Record<Task["kind"], string> = { terminal: "$", command: "$", background: "&", shell: "!", process: "⚙" };
const KIND_WORD: Record<Task["kind"], string> = {
  terminal: "the agent's terminal",
  command: "the agent's command",
  background: "the agent's background task",
  shell: "your command",
  process: "a process of the agent's",
};

/** `4s`, `2m05s`, `1h02m`. */
export function shortDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** The last lines a task printed, from its terminal's screen: what it shows, not what it wrote. */
export function lastLines(terminal: Terminal | undefined, count: number): string[] {
  if (!terminal) return [];
  return terminal.screen
    .snapshot({ tail: count })
    .map((line) =>
      line
        .map((seg) => seg.text)
        .join("")
        .trimEnd(),
    )
    .filter((line, i, all) => line !== "" || i < all.length - 1);
}

/** What the tasks view draws of a session's tasks. */
export interface TaskRowsOptions {
  width: number;
  selected: number;
  now: number;
  terminal?: (id: string) => Terminal | undefined;
  /** A stop of the selected task waits for y. */
  confirmingStop?: boolean;
  /** The selected task's pane is opened: as much of its screen as fits, not its last lines. */
  opened?: boolean;
  /** Rows at most; the list scrolls with the selection. */
  maxRows: number;
}

/** One task: state, kind, what it is, how long, which turn; the selected one with its last lines and what conch does at quit. */
function taskRows(task: Task, selected: boolean, opts: TaskRowsOptions): string[] {
  const { width, now } = opts;
  const icon = task.running ? paint("◐", { role: "accent" }) : paint("■", { dim: true });
  const mark = paint(KIND_MARK[task.kind], {
    role: task.kind === "shell" ? "user" : undefined,
    dim: task.kind !== "shell",
    bold: task.kind === "shell",
  });
  const time = task.running
    ? task.startedAt !== undefined
      ? `running ${shortDuration(now - task.startedAt)}`
      : "running"
    : `${task.how ?? "ended"}${task.endedAt !== undefined ? ` · ${shortDuration(now - task.endedAt)} ago` : ""}`;
  const right = paint(time, { role: task.running ? "accent" : undefined, dim: !task.running });
  const pointer = selected ? paint("›", { role: "focus", bold: true }) : " ";
  const label = safeLine(task.label);
  const room = Math.max(10, width - cellWidth(time) - 8);
  const head = `${pointer} ${icon} ${mark} ${paint(truncateRow(label, room), { bold: selected })}`;
  const rows = [`${head}${" ".repeat(Math.max(1, width - cellWidth(head) - cellWidth(time)))}${right}`];
  if (!selected) return rows.map((r) => truncateRow(r, width));
  const facts = [
    KIND_WORD[task.kind],
    task.turn ? `from “${safeLine(task.turn)}”` : undefined,
    task.pids?.length ? `pid ${task.pids.join(", ")}` : undefined,
    task.atQuit,
  ].filter(Boolean);
  // Wrapped, not cut: what conch does at quit must be read whole.
  rows.push(...hang("      ", "      ", paint(facts.join(" · "), { dim: true }), width));
  const shown = opts.opened ? Math.max(4, opts.maxRows - rows.length - 4) : 4;
  const lines = task.terminalId ? lastLines(opts.terminal?.(task.terminalId), shown) : [];
  for (const line of lines) rows.push(`      ${paint("│", { dim: true })} ${safeLine(line)}`);
  if (opts.confirmingStop) {
    const ask = `stop ${KIND_WORD[task.kind]}? y stops it (SIGTERM, then SIGKILL), any other key keeps it`;
    rows.push(...hang("      ", "      ", paint(ask, { role: "warning" }), width));
  }
  return rows.map((r) => truncateRow(r, width));
}

/** The tasks view: every task, running first, the selected one opened up; or a line that says there are none. */
export function tasksViewRows(tasks: readonly Task[], opts: TaskRowsOptions): string[] {
  const running = tasks.filter((t) => t.running).length;
  const title = `${paint("Tasks", { bold: true })}${paint(` · ${running} running · ${tasks.length - running} ended`, { dim: true })}`;
  if (tasks.length === 0) return [title, paint("  nothing runs in this session, and nothing ran in the background", { dim: true })];
  const all = tasks.map((t, i) => taskRows(t, i === opts.selected, opts));
  // Scroll so the selected task is whole on screen.
  const budget = Math.max(3, opts.maxRows - 1);
  let start = 0;
  const height = (from: number, to: number) => all.slice(from, to + 1).reduce((n, r) => n + r.length, 0);
  while (start < opts.selected && height(start, opts.selected) > budget) start++;
  const out: string[] = [];
  for (let i = start; i < all.length && out.length + all[i].length <= budget; i++) out.push(...all[i]);
  const shownTo = start + all.slice(start).findIndex((_, i) => height(start, start + i) > budget);
  const after = shownTo > start ? all.length - shownTo : 0;
  return [
    title,
    ...(start > 0 ? [paint(`  … ${start} more above`, { dim: true })] : []),
    ...out,
    ...(after > 0 ? [paint(`  … ${after} more below`, { dim: true })] : []),
  ];
}
