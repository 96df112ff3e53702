// The session's records of work that runs beside the turns: terminals and background tasks.

/** A terminal known to the session, display-only (agent) or client-owned (PTY). */
export interface TerminalView {
  terminalId: string;
  source: "display" | "client";
  toolCallId?: string;
  command?: string;
  cwd?: string;
  exited: boolean;
  exitCode?: number | null;
  signal?: string | null;
  /** The last bytes written, bounded; the screen itself lives in terminals/. */
  outputTail: string;
  outputBytes: number;
  history: boolean;
  /** Last sign of life (event clock): output, or when it opened. */
  lastAt?: number;
  /** When it opened (event clock). */
  startedAt?: number;
  /** When its exit was recorded (event clock). */
  endedAt?: number;
  /** The user's own command (`!cmd`), not the agent's. */
  by?: "user";
}

/**
 * Work the agent runs after the tool call that started it has completed (a background shell task),
 * and whose end it reports in a turn of its own (claude-agent-acp 0.100).
 */
export interface BackgroundTask {
  taskId: string;
  toolCallId?: string;
  /** The command or task name, for "waiting for Claude's report on …". */
  label: string;
  startedAt: number;
  /** The work itself ended. */
  endedAt?: number;
  /** The agent's own turn about it ended. */
  reportedAt?: number;
  /** conch stopped waiting for the report: it stalled, the turn was cancelled, or the agent is gone. */
  abandonedAt?: number;
}
