import React, { useCallback, useEffect, useMemo, useState } from "react";
import { Box, Text, useApp } from "ink";
import { InputEditor } from "../components/input-editor.js";
import { InputNotes } from "../components/input-notes.js";
import { AuthPicker } from "../components/auth-picker.js";
import { PickerView } from "../components/picker-view.js";
import { WaitingPrompts } from "../components/waiting-prompts.js";
import { QueueView } from "../components/queue-view.js";
import { SearchView } from "../components/search-view.js";
import { TasksView } from "../components/tasks-view.js";
import { StatusBar } from "../components/status-bar.js";
import { StatusLine } from "../components/status-line.js";
import { StatusPanel } from "../components/status-panel.js";
import { UndoPrompt } from "../components/undo-prompt.js";
import { useAttention } from "../hooks/use-attention.js";
import { KeypressProvider } from "../hooks/use-keypress.js";
import { usePromptRoom } from "../hooks/use-prompt-room.js";
import { usePrintedPanel } from "../hooks/use-printed-panel.js";
import { CLEAR_SCREEN } from "../hooks/use-reprint-on-resize.js";
import { useSessionView } from "../hooks/use-session-view.js";
import { useShell } from "../hooks/use-shell.js";
import type { ClipboardRead } from "../compose/clipboard-image.js";
import type { TerminalHandoff } from "../compose/external-editor.js";
import { FileIndex } from "../compose/file-mentions.js";
import { allSlashCommands } from "../commands/slash-commands.js";
import type { AgentCommand } from "../../agents/agent-process.js";
import type { SessionPort } from "../session-port.js";
import { footer } from "../shell/key-bindings.js";
import { inputPlaceholder } from "./instant-prompt.js";
import { inputMaxLines } from "../editor/editor-view.js";
import type { EditorState } from "../editor/editor-state.js";
import { describeStatus, isBusy } from "../status/status-text.js";
import { hasLiveBackground } from "../../session/profiles/display-of.js";
import { stateAtQuit } from "../../session/state-at-quit.js";
import { paneRows } from "../render/pane-rows.js";
import { LiveTailRegion } from "../transcript/live-region.js";
import { sizeRunningTerminals } from "../transcript/pane-sizes.js";
import { NO_FEATURES, type TerminalFeatures } from "../tty/terminal-features.js";
import { useTerminalProgress } from "../hooks/use-terminal-progress.js";
import { safeLine } from "../../text/terminal-safe.js";
import { remoteWriterLine } from "../status/session-facts.js";

/** Props of the interactive app. */
export interface AppProps {
  session: SessionPort;
  /** The agent preset's name, until the agent names itself. */
  agentName: string;
  cwd: string;
  /** Rings for the user's attention; absent with --no-notify. */
  notify?: (message: string) => void;
  /** Called when the user quits, after Ink is told to exit. */
  onQuit?: () => void;
  /** Given the app's quit once it is drawn: a signal quits as /quit does, its last frame without the prompt. */
  takeQuit?: (quit: () => void) => void;
  /** The terminal was asked for bracketed paste (run-interactive does). */
  bracketedPaste?: boolean;
  /** Frame interval for state coalescing. */
  frameMs?: number;
  /** How the agent was started: a terminal login method runs it with extra arguments. */
  agentCommand?: AgentCommand;
  /** The saved sessions as a table, for /sessions. */
  listSessions?: () => Promise<string>;
  /** What the terminal understands beyond text and colours (links, prompt marks, progress). */
  features?: TerminalFeatures;
  /** Lends the terminal to the external editor (Ctrl-G). */
  handoff?: TerminalHandoff;
  /** Reads an image from the clipboard (Alt-V); the system's clipboard tools unless given. */
  readClipboard?: () => Promise<ClipboardRead>;
  /** The editor as the instant prompt left it: the keys typed while conch started, already applied. */
  editorAtStart?: EditorState;
  /** Set in `conch attach --write`: the session runs in another conch, which this one drives. */
  attachedTo?: { sessionId: string; pid: number };
}

/** Rows of live tail shown while a permission prompt, question or login waits: the prompt shows what matters. */
const ASKING_LIVE_ROWS = 3;

/**
 * The interactive shell: printed transcript, live tail, permission prompt, queue, status line,
 * input, status bar. It composes: state comes from the session, decisions from the session and the
 * shell hook, drawing from the components.
 */
export function App(props: AppProps): React.ReactElement {
  return (
    <KeypressProvider>
      <AppView {...props} />
    </KeypressProvider>
  );
}

function AppView(props: AppProps): React.ReactElement {
  const { session, agentName, cwd } = props;
  const features = props.features ?? NO_FEATURES;
  const { exit } = useApp();
  const [expanded, setExpanded] = useState(false);
  // Quitting draws one last frame without the input and status lines, so the shell prompt follows the
  // transcript; it stops the agent, so that frame shows what ran on in its session as ended with it.
  const [quitting, setQuitting] = useState(false);
  const view = useSessionView(session, {
    frameMs: props.frameMs,
    features,
    expanded,
    // A command that outlived its turn still draws: its pane's output and timer go on while the session is idle.
    running: (s) => (s.phase !== "idle" && s.phase !== "failed") || hasLiveBackground(s),
    drawn: quitting ? stateAtQuit : undefined,
  });
  const { state, width, rows, write, libsReady, access, running, transcript, reprint, frameRef, chromeRef, chromeHeight, liveMax, loose } =
    view;
  useAttention(state, props.notify);
  useTerminalProgress(features.progress && libsReady ? running : false, write);

  const clearScreen = useCallback(() => {
    write(CLEAR_SCREEN);
    transcript.skipPrinted();
  }, [write, transcript]);

  const quit = useCallback(() => setQuitting(true), []);
  useEffect(() => {
    if (!quitting) return;
    exit();
    props.onQuit?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [quitting]);
  const { takeQuit } = props;
  useEffect(() => takeQuit?.(quit), [takeQuit, quit]);

  const shell = useShell({
    port: session,
    state,
    cwd,
    terminals: access,
    paneRows: Math.max(3, liveMax - 3),
    quit,
    clearScreen,
    reprint,
    expanded,
    setExpanded,
    listSessions: props.listSessions,
    handoff: props.handoff,
    readClipboard: props.readClipboard,
    editorAtStart: props.editorAtStart,
  });

  const files = useMemo(() => new FileIndex(state.info?.cwd ?? cwd), [state.info?.cwd, cwd]);
  const commands = useMemo(() => allSlashCommands(state.commands), [state.commands]);
  const status = describeStatus(state, {
    agentName,
    runningTerminal: shell.runningTerminals.length > 0,
    terminalFocused: shell.focus === "terminal",
    timing: session.timing,
  });
  const focused = shell.terminalFocus ? access?.get(shell.terminalFocus.id) : undefined;
  const busy = isBusy(state);
  // A prompt's height is only known after it is painted; a short live tail keeps that first frame on screen.
  const asking = state.permissions.length > 0 || state.questions.length > 0 || state.phase === "auth";
  const focusRows = Math.max(3, liveMax - 3);
  useEffect(() => {
    sizeRunningTerminals(state, access, width, shell.terminalFocus ? { id: shell.terminalFocus.id, rows: focusRows } : undefined);
  });
  const opening = state.phase === "starting" || state.phase === "auth" || state.failure?.kind === "agent-start";
  const panelLines = Math.max(3, Math.floor(rows / 2));
  const panelPrinted = usePrintedPanel(shell.panel, panelLines, width, write);
  const room = usePromptRoom({ state, width, rows, chromeHeight, libsReady, focus: shell.focus });
  const { compact } = room;

  return (
    <Box ref={frameRef} flexDirection="column" width={width}>
      {shell.search && libsReady ? (
        <SearchView
          state={state}
          query={shell.search.query}
          hits={shell.searchHits}
          selected={shell.searchIndex}
          scroll={shell.search.scroll}
          width={width}
          maxRows={liveMax}
        />
      ) : shell.tasks && !shell.terminalFocus ? (
        <TasksView {...shell.taskList} view={shell.tasks} width={width} maxRows={liveMax} terminal={(id) => access?.get(id)} />
      ) : focused && shell.terminalFocus ? (
        <Box flexDirection="column" marginTop={1}>
          <Text>
            {paneRows(focused, {
              rows: focusRows,
              width,
              focused: true,
              scrollOffset: shell.terminalFocus.scroll,
              title: state.terminals[shell.terminalFocus.id]?.command,
            }).join("\n")}
          </Text>
          <Text dimColor>{`  ${footer(["type-terminal", "scroll-terminal", "leave-terminal"])}`}</Text>
        </Box>
      ) : (
        <LiveTailRegion
          tail={transcript.tail}
          flush={transcript.flush}
          state={state}
          items={transcript.plan.live}
          rowsOf={transcript.rowsOf}
          continued={transcript.continued}
          extra={loose}
          preview={transcript.plan.preview}
          maxRows={asking ? Math.min(liveMax, ASKING_LIVE_ROWS) : liveMax}
          width={width}
        />
      )}
      {quitting ? null : (
        <Box ref={chromeRef} flexDirection="column" width={width} marginTop={compact ? 0 : 1}>
          <WaitingPrompts
            state={state}
            width={width}
            room={room}
            live={ASKING_LIVE_ROWS}
            libsReady={libsReady}
            focus={shell.focus}
            answerPermission={shell.answerPermission}
            answerQuestion={shell.answerQuestion}
          />
          {state.phase === "auth" && state.auth ? (
            <AuthPicker
              methods={state.auth.methods}
              message={state.auth.message}
              agentName={agentName}
              agentCommand={props.agentCommand ?? { command: agentName, args: [] }}
              width={width}
              isActive={shell.focus === "auth"}
              onChoose={shell.authenticate}
            />
          ) : null}
          <QueueView
            queue={state.queue}
            selected={shell.queueSelected}
            editingId={shell.editingQueuedId}
            width={width}
            maxShown={Math.max(2, Math.floor(rows / 5))}
            isActive={shell.focus === "queue"}
            waitsFor={opening ? "the session opens" : undefined}
            {...shell.queue}
          />
          {shell.undo ? (
            <UndoPrompt
              plan={shell.undo}
              width={width}
              maxRows={Math.max(8, rows - 8)}
              isActive={shell.focus === "undo"}
              onAnswer={shell.answerUndo}
            />
          ) : null}
          {shell.picker ? (
            <PickerView
              picker={shell.picker}
              width={width}
              maxRows={panelLines + 4}
              isActive={shell.focus === "picker"}
              {...shell.pickerKeys}
            />
          ) : null}
          {shell.panel && !panelPrinted ? (
            <StatusPanel lines={shell.panel.lines} tone={shell.panel.tone} width={width} maxLines={panelLines} />
          ) : null}
          {compact ? (
            <InputNotes notes={shell.notes} ctrlCArmed={shell.ctrlCArmed} editingIndex={shell.editingIndex} width={width} />
          ) : (
            <Box ref={room.belowRef} flexDirection="column">
              <StatusLine view={status} width={width} />
              <InputEditor
                store={shell.editor}
                isActive={shell.focus === "input"}
                width={width}
                maxLines={inputMaxLines(rows)}
                commands={commands}
                files={files}
                bracketedPaste={props.bracketedPaste === true}
                prompt={shell.editingIndex >= 0 ? `edit ${shell.editingIndex + 1} ›` : "›"}
                placeholder={inputPlaceholder(state.phase, busy)}
                onSubmit={shell.submit}
                onKey={shell.onEditorKey}
                onDrawn={view.measureChrome}
              />
              <InputNotes notes={shell.notes} ctrlCArmed={shell.ctrlCArmed} editingIndex={shell.editingIndex} width={width} />
              <StatusBar state={state} agentName={agentName} cwd={cwd} width={width} />
            </Box>
          )}
          {state.remoteWriter && !props.attachedTo ? (
            <Text dimColor wrap="truncate-end">
              {remoteWriterLine(state)}
            </Text>
          ) : null}
          {props.attachedTo ? (
            <Text dimColor wrap="truncate-end">
              {`attached to ${safeLine(props.attachedTo.sessionId)}: conch pid ${props.attachedTo.pid} runs it, your keys act there · ctrl-c twice detaches`}
            </Text>
          ) : null}
        </Box>
      )}
    </Box>
  );
}
