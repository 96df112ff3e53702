import React, { useCallback, useEffect } from "react";
import { Box, Text, useApp, useStdout } from "ink";
import { StatusBar } from "../components/status-bar.js";
import { StatusLine } from "../components/status-line.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useMeasuredHeight } from "../hooks/use-measured-height.js";
import { useRenderLibs } from "../hooks/use-render-libs.js";
import { CLEAR_SCREEN, useReprintOnResize } from "../hooks/use-reprint-on-resize.js";
import { useSessionState } from "../hooks/use-session-state.js";
import { useTerminalSize } from "../hooks/use-terminal-size.js";
import { useTicker } from "../hooks/use-ticker.js";
import type { SessionSource } from "../session-port.js";
import { describeStatus } from "../status/status-text.js";
import { NO_FEATURES, type TerminalFeatures } from "../tty/terminal-features.js";
import { LiveRegion } from "../transcript/live-region.js";
import { loosePaneRows } from "../transcript/loose-panes.js";
import { sizeRunningTerminals } from "../transcript/pane-sizes.js";
import { useTranscript } from "../hooks/use-transcript.js";
import { safeLine } from "../../text/terminal-safe.js";

/** Where the process writing the session stands, as the attach view shows it. */
export type WriterView =
  { kind: "live"; pid: number } | { kind: "gone"; pid?: number } | { kind: "none" } | { kind: "deleted"; reason: string };

/** Props of the attach view. */
export interface AttachAppProps {
  session: SessionSource;
  sessionId: string;
  /** Who writes the log now; the caller looks it up. */
  writer: WriterView;
  features?: TerminalFeatures;
  frameMs?: number;
}

/** Rows kept free between the live region and the terminal's height. */
const LIVE_MARGIN = 4;

function writerWords(writer: WriterView): string {
  switch (writer.kind) {
    case "live":
      return `live: conch pid ${writer.pid} runs this session`;
    case "gone":
      return `ended: conch${writer.pid ? ` pid ${writer.pid}` : ""} has exited`;
    case "none":
      return "not open in any conch: shown as logged, and followed if one resumes it";
    case "deleted":
      return writer.reason;
  }
}

/**
 * `conch attach`: the transcript of a session another conch runs, drawn exactly as that conch
 * draws it (settled items printed to the scrollback, what may still change live, terminal panes),
 * with a status line and no input: the view is read-only. `q` (or Ctrl-C) quits.
 */
export function AttachApp(props: AttachAppProps): React.ReactElement {
  const { session, sessionId, writer } = props;
  const features = props.features ?? NO_FEATURES;
  const { exit } = useApp();
  const { write } = useStdout();
  const { state } = useSessionState(session, props.frameMs);
  const { columns, rows } = useTerminalSize();
  const width = Math.max(20, columns);
  const libsReady = useRenderLibs(true);
  const access = session.terminals;
  const resolveTerminal = useCallback((id: string) => access?.get(id), [access]);
  const running = state.phase !== "idle" && state.phase !== "failed" && writer.kind === "live";
  const ticker = useTicker(running && libsReady);
  const transcript = useTranscript({
    state,
    width,
    expanded: false,
    terminal: access ? resolveTerminal : undefined,
    frame: ticker.frame,
    now: ticker.now,
    write,
    previewRows: Math.max(3, rows - 8),
    ready: libsReady,
    promptMarks: features.promptMarks,
    links: features.hyperlinks,
  });
  const reprint = useCallback(() => {
    write(CLEAR_SCREEN);
    transcript.reprint();
  }, [write, transcript]);
  useReprintOnResize(width, reprint);
  useEffect(() => {
    sizeRunningTerminals(state, access, width, undefined);
  });

  useKeypress((input, key) => {
    if (input === "q" || (key.ctrl && input === "c")) exit();
  });

  const [chromeRef, chromeHeight] = useMeasuredHeight();
  const liveMax = Math.max(3, rows - chromeHeight - LIVE_MARGIN);
  const loose = libsReady ? loosePaneRows(state, access, width, ticker.now) : [];
  const agentName = state.info?.agentName ?? "the agent";
  const status = writer.kind === "live" ? describeStatus(state, { agentName }) : null;
  // The keys a status names are the running conch's, not this view's.
  const view = status ? { ...status, hints: [] } : null;
  return (
    <Box flexDirection="column" width={width}>
      <LiveRegion
        state={state}
        items={transcript.plan.live}
        rowsOf={transcript.rowsOf}
        continued={transcript.continued}
        extra={loose}
        preview={transcript.plan.preview}
        maxRows={liveMax}
      />
      <Box ref={chromeRef} flexDirection="column" width={width} marginTop={1}>
        <StatusLine view={view} width={width} />
        <Text dimColor wrap="truncate-end">
          {writerWords(writer)}
        </Text>
        <Text dimColor wrap="truncate-end">{`attached to ${safeLine(sessionId)}, read-only · q quits`}</Text>
        <StatusBar state={state} agentName={agentName} cwd={state.info?.cwd ?? ""} width={width} keyHints={false} />
      </Box>
    </Box>
  );
}
