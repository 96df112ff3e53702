import React, { useEffect } from "react";
import { Box, Text, useApp } from "ink";
import { StatusBar } from "../components/status-bar.js";
import { StatusLine } from "../components/status-line.js";
import { KeypressProvider, useKeypress } from "../hooks/use-keypress.js";
import { useSessionView } from "../hooks/use-session-view.js";
import type { SessionSource } from "../session-port.js";
import { describeStatus } from "../status/status-text.js";
import { NO_FEATURES, type TerminalFeatures } from "../tty/terminal-features.js";
import { LiveRegion } from "../transcript/live-region.js";
import { sizeRunningTerminals } from "../transcript/pane-sizes.js";
import { safeLine } from "../../text/terminal-safe.js";
import { commandFor, footer } from "../shell/key-bindings.js";

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
 * with a status line and no input: the view is read-only; its one key quits (`quit-attach`).
 */
export function AttachApp(props: AttachAppProps): React.ReactElement {
  return (
    <KeypressProvider>
      <AttachView {...props} />
    </KeypressProvider>
  );
}

function AttachView(props: AttachAppProps): React.ReactElement {
  const { session, sessionId, writer } = props;
  const { exit } = useApp();
  const { state, width, access, transcript, frameRef, chromeRef, liveMax, loose } = useSessionView(session, {
    frameMs: props.frameMs,
    features: props.features ?? NO_FEATURES,
    expanded: false,
    running: (s) => s.phase !== "idle" && s.phase !== "failed" && writer.kind === "live",
  });
  useEffect(() => {
    sizeRunningTerminals(state, access, width, undefined);
  });

  useKeypress((input, key, raw) => {
    if (commandFor("attach", input, key, raw) !== "quit-attach") return false;
    exit();
    return true;
  });

  const agentName = state.info?.agentName ?? "the agent";
  const status = writer.kind === "live" ? describeStatus(state, { agentName }) : null;
  // The keys a status names are the running conch's, not this view's.
  const view = status ? { ...status, hints: [] } : null;
  return (
    <Box ref={frameRef} flexDirection="column" width={width}>
      <LiveRegion
        state={state}
        items={transcript.plan.live}
        rowsOf={transcript.rowsOf}
        continued={transcript.continued}
        extra={loose}
        preview={transcript.plan.preview}
        maxRows={liveMax}
        width={width}
      />
      <Box ref={chromeRef} flexDirection="column" width={width} marginTop={1}>
        <StatusLine view={view} width={width} />
        <Text dimColor wrap="truncate-end">
          {writerWords(writer)}
        </Text>
        <Text dimColor wrap="truncate-end">{`attached to ${safeLine(sessionId)}, read-only · ${footer(["quit-attach"])}`}</Text>
        <StatusBar state={state} agentName={agentName} cwd={state.info?.cwd ?? ""} width={width} keyHints={false} />
      </Box>
    </Box>
  );
}
