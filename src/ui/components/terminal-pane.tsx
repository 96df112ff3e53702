import React, { useEffect, useState } from "react";
import { Box, Text } from "ink";
import type { ExitStatus, Terminal } from "../../terminals/terminal.js";
import { ScreenRow } from "./screen-lines.js";
import { color } from "./theme.js";
import { formatElapsed, useElapsed } from "./use-elapsed.js";
import { useThrottledScreen } from "./use-throttled-screen.js";

/** Props of a terminal pane. */
export interface TerminalPaneProps {
  terminal: Terminal;
  /** Screen rows to show (the border adds two). */
  rows: number;
  /** Outer width, border included. */
  width: number;
  /** Highlights the border: keys typed go to this terminal. */
  focused: boolean;
  /** Rows scrolled up from the live bottom; 0 or absent shows the tail of the output. */
  scrollOffset?: number;
  /** Usually the command line. */
  title?: string;
  /** When the command started (ms epoch), for the elapsed time; defaults to when the pane mounted. */
  startedAt?: number;
}

/** A terminal's screen in a titled border, redrawn at most ~30 times a second. */
export function TerminalPane(props: TerminalPaneProps): React.ReactElement {
  const { terminal, width, focused } = props;
  const rows = Math.max(1, Math.floor(props.rows));
  const innerWidth = Math.max(1, width - 2);
  useThrottledScreen(terminal);
  const [mountedAt] = useState(() => Date.now());
  const [, setResized] = useState(0);
  const status = terminal.exitStatus;
  const elapsed = useElapsed(props.startedAt ?? mountedAt, status === null);

  useEffect(() => {
    // A finished command's screen is history: reflowing it helps nobody, and two panes of one
    // terminal at different sizes must not fight over it.
    if (terminal.exitStatus) return;
    if (terminal.screen.cols === innerWidth && terminal.screen.rows === rows) return;
    terminal.resize(innerWidth, rows);
    // A reflow is not output, so no screen change fires: redraw from the resized screen now.
    setResized((n) => n + 1);
  }, [terminal, innerWidth, rows]);

  const offset = props.scrollOffset ?? 0;
  const lines = offset > 0 ? terminal.screen.snapshot({ scrollOffset: offset, rows }) : terminal.screen.snapshot({ tail: rows });
  const borderColor = color(focused ? "focus" : "border");

  return (
    <Box flexDirection="column" width={width}>
      <PaneTop
        width={width}
        title={props.title ?? "terminal"}
        cwd={terminal.cwd}
        status={status}
        elapsed={elapsed}
        scrolled={offset}
        focused={focused}
        borderColor={borderColor}
      />
      <Box
        flexDirection="column"
        width={width}
        borderStyle="round"
        borderTop={false}
        borderColor={borderColor}
        borderDimColor={!focused}
      >
        {lines.length === 0 ? (
          <Text dimColor>{status ? "(no output)" : "(waiting for output)"}</Text>
        ) : (
          lines.map((line, i) => <ScreenRow key={i} line={line} />)
        )}
      </Box>
    </Box>
  );
}

interface PaneTopProps {
  width: number;
  title: string;
  cwd: string | null;
  status: ExitStatus | null;
  elapsed: number;
  scrolled: number;
  focused: boolean;
  borderColor: string | undefined;
}

/** The top border with the title, cwd and state written into it (Ink borders have no titles). */
function PaneTop(p: PaneTopProps): React.ReactElement {
  const state = exitLabel(p.status) ?? formatElapsed(p.elapsed);
  const stateRole = p.status === null ? "muted" : p.status.exitCode === 0 ? "success" : "error";
  const scroll = p.scrolled > 0 ? ` ↑${p.scrolled}` : "";
  // "╭─ " title [" · " cwd] " " fill " " state scroll " ─╮"
  const fixed = 3 + 1 + 1 + state.length + scroll.length + 3;
  let room = Math.max(0, p.width - fixed);
  const title = clip(p.title, room);
  room -= title.length;
  const cwd = p.cwd && room > 6 ? clip(p.cwd, room - 3) : "";
  room -= cwd ? cwd.length + 3 : 0;
  const fill = "─".repeat(Math.max(0, room));
  const dimBorder = !p.focused;
  return (
    <Text wrap="truncate-end">
      <Text color={p.borderColor} dimColor={dimBorder}>
        {"╭─ "}
      </Text>
      <Text bold={p.focused}>{title}</Text>
      {cwd ? <Text dimColor>{` · ${cwd}`}</Text> : null}
      <Text color={p.borderColor} dimColor={dimBorder}>
        {` ${fill}`}
      </Text>
      <Text color={color(stateRole)} dimColor={p.status === null}>
        {` ${state}`}
      </Text>
      {scroll ? <Text color={color("warning")}>{scroll}</Text> : null}
      <Text color={p.borderColor} dimColor={dimBorder}>
        {" ─╮"}
      </Text>
    </Text>
  );
}

/** `exit 0`, `exit 2`, `SIGTERM`; null while running. */
export function exitLabel(status: ExitStatus | null | undefined): string | null {
  if (!status) return null;
  if (status.signal) return status.signal;
  return status.exitCode === null ? "exited" : `exit ${status.exitCode}`;
}

function clip(text: string, max: number): string {
  if (max <= 0) return "";
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ");
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}
