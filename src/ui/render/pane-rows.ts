import type { ScreenLine } from "../../terminals/terminal-screen.js";
import { KEPT_AFTER_EXIT, type ExitStatus, type ScreenView, type Terminal } from "../../terminals/terminal.js";
import { inkColor } from "./screen-colors.js";
import { paint } from "./style.js";
import { cellWidth, truncateRow } from "./text.js";

/** One emulator row as ANSI, cut to `width` cells. */
function screenRowAnsi(line: ScreenLine, width: number): string {
  if (line.length === 0) return "";
  const text = line
    .map((seg) =>
      paint(seg.text, {
        fg: inkColor(seg.fg),
        bg: inkColor(seg.bg),
        bold: seg.bold,
        dim: seg.dim,
        italic: seg.italic,
        underline: seg.underline,
        inverse: seg.inverse,
      }),
    )
    .join("");
  return truncateRow(text, width);
}

/** `exit 0`, `exit 2`, `SIGTERM`; null while running. */
function exitLabel(status: ExitStatus | null | undefined): string | null {
  if (!status) return null;
  if (status.signal) return status.signal;
  return status.exitCode === null ? "exited" : `exit ${status.exitCode}`;
}

/** `4s`, `2m05s`, `1h02m`: short enough for a pane border. */
function paneElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/** What a pane shows besides the screen. */
export interface PaneOptions {
  /**
   * Screen rows (the border adds two): a running command's last rows; of a finished one, the most
   * rows shown (the whole output when it fits, else its head and tail around a count of the rest).
   */
  rows: number;
  /** Outer width, border included. */
  width: number;
  focused?: boolean;
  /** Rows scrolled up from the live bottom. */
  scrollOffset?: number;
  title?: string;
  /** Milliseconds the command has run, while it runs. */
  elapsedMs?: number;
  /**
   * The call is over though the terminal never reported an exit (cancelled, stalled): this word
   * takes the place of the running time, which would stand still on a finished card.
   */
  ended?: string;
  /** Rows shown when the screen has none (output the agent reported elsewhere), already cut to the inner width. */
  emptyRows?: string[];
}

/** The line that stands for the rows a finished pane leaves out: never a silent cut. */
export function hiddenLinesRow(hidden: number): string {
  return paint(`… ${hidden} line${hidden === 1 ? "" : "s"} hidden (Ctrl-R/export shows all)`, { dim: true });
}

/**
 * A finished command's output as pane rows: all of it when it fits in `max` rows, else its first
 * rows, a line counting the rest, and its last rows (the end of a log is what people read first).
 */
function finishedRows(screen: ScreenView, max: number, width: number): string[] {
  const total = Math.min(screen.contentRows, KEPT_AFTER_EXIT.head + KEPT_AFTER_EXIT.tail);
  const hiddenBeyondKept = screen.contentRows - total;
  if (total <= max && hiddenBeyondKept === 0) return screen.snapshot({ tail: total }).map((l) => screenRowAnsi(l, width));
  const room = Math.max(2, Math.min(max, total) - 1);
  const head = Math.min(KEPT_AFTER_EXIT.head, Math.max(1, Math.floor(room / 4)));
  const tail = Math.min(KEPT_AFTER_EXIT.tail, room - head);
  const hidden = screen.contentRows - head - tail;
  return [
    ...screen.snapshot({ head }).map((l) => screenRowAnsi(l, width)),
    truncateRow(hiddenLinesRow(hidden), width),
    ...screen.snapshot({ tail }).map((l) => screenRowAnsi(l, width)),
  ];
}

function clip(text: string, max: number): string {
  if (max <= 0) return "";
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ");
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * A terminal's screen in a titled round border: the title, cwd and state written into the top
 * border, the last `rows` rows (or a scrolled window) inside.
 */
export function paneRows(terminal: Terminal, opts: PaneOptions): string[] {
  const rows = Math.max(1, Math.floor(opts.rows));
  const width = Math.max(4, opts.width);
  const inner = width - 2;
  const status = terminal.exitStatus;
  const focused = opts.focused === true;
  const border = { role: focused ? ("focus" as const) : ("border" as const), dim: !focused };
  const state = exitLabel(status) ?? opts.ended ?? paneElapsed(opts.elapsedMs ?? 0);
  const scroll = opts.scrollOffset ? ` ↑${opts.scrollOffset}` : "";
  const fixed = 3 + 1 + 1 + state.length + scroll.length + 3;
  let room = Math.max(0, width - fixed);
  const title = clip(opts.title ?? "terminal", room);
  room -= title.length;
  const cwd = terminal.cwd && room > 6 ? clip(terminal.cwd, room - 3) : "";
  room -= cwd ? cwd.length + 3 : 0;
  const stateRole = status === null ? (opts.ended ? "warning" : "muted") : status.exitCode === 0 ? "success" : "error";
  const top =
    paint("╭─ ", border) +
    paint(title, { bold: focused }) +
    (cwd ? paint(` · ${cwd}`, { dim: true }) : "") +
    paint(` ${"─".repeat(Math.max(0, room))}`, border) +
    paint(` ${state}`, { role: stateRole, dim: status === null }) +
    (scroll ? paint(scroll, { role: "warning" }) : "") +
    paint(" ─╮", border);
  const offset = opts.scrollOffset ?? 0;
  const side = paint("│", border);
  const lines =
    offset > 0
      ? terminal.screen.snapshot({ scrollOffset: offset, rows }).map((l) => screenRowAnsi(l, inner))
      : status || opts.ended
        ? finishedRows(terminal.screen, rows, inner)
        : terminal.screen.snapshot({ tail: rows }).map((l) => screenRowAnsi(l, inner));
  const body =
    lines.length > 0
      ? lines
      : opts.emptyRows?.length
        ? opts.emptyRows
        : [paint(status || opts.ended ? "(no output)" : "(waiting for output)", { dim: true })];
  const framed = body.map((row) => `${side}${row}${" ".repeat(Math.max(0, inner - cellWidth(row)))}${side}`);
  return [truncateRow(top, width), ...framed, paint(`╰${"─".repeat(inner)}╯`, border)];
}
