import { useCallback, useRef, type RefObject } from "react";
import type { DOMElement } from "ink";
import { useStdout } from "ink";
import type { SessionState } from "../../session/state.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";
import type { SessionSource } from "../session-port.js";
import { loosePaneRows } from "../transcript/loose-panes.js";
import type { TerminalFeatures } from "../tty/terminal-features.js";
import { useMeasuredHeight } from "./use-measured-height.js";
import { mayWarmUp } from "../render/warm-up.js";
import { useRenderLibs, useWarmUp } from "./use-render-libs.js";
import { CLEAR_SCREEN, useReprintOnResize } from "./use-reprint-on-resize.js";
import { useSessionState } from "./use-session-state.js";
import { useTerminalSize } from "./use-terminal-size.js";
import { useTicker } from "./use-ticker.js";
import { useTranscript, type TranscriptView } from "./use-transcript.js";

/** Rows kept free between the live region and the terminal's height, so a frame that grows a little never reaches it. */
const LIVE_MARGIN = 4;

/** What a session's view needs besides the session. */
export interface SessionViewOptions {
  frameMs?: number;
  features: TerminalFeatures;
  /** Tool output and thoughts shown in full (/expand). */
  expanded: boolean;
  /** Whether the session works now: the spinner ticks. */
  running(state: SessionState): boolean;
  /** The state the transcript draws, when it is not the session's own (quitting's last frame). */
  drawn?(state: SessionState): SessionState;
}

/** A session drawn as the TUI draws one: what the interactive App and `conch attach` share. */
export interface SessionView {
  state: SessionState;
  width: number;
  rows: number;
  write(data: string): void;
  libsReady: boolean;
  access?: TerminalAccess;
  running: boolean;
  ticker: { frame: number; now: number };
  transcript: TranscriptView;
  /** Clears the screen and prints the whole transcript again. */
  reprint(): void;
  /** The chrome under the live region: its measured height leaves `liveMax` rows to the live region. */
  chromeRef: RefObject<DOMElement | null>;
  /** The chrome's measured height (a prompt in it takes what the rest leaves). */
  chromeHeight: number;
  liveMax: number;
  /** Rows of running terminals no call shows. */
  loose: string[];
}

/**
 * The wiring every view of a session has: its state one render per frame, the terminal's size,
 * the transcript printed to the scrollback and the live region sized under the chrome, reprinted
 * on a resize.
 */
export function useSessionView(session: SessionSource, opts: SessionViewOptions): SessionView {
  const { write } = useStdout();
  // While a backlog is written, the session's state reaches the App less often (see SLOW_FRAME_MS).
  const backlog = useRef(false);
  const { state, screens } = useSessionState(session, opts.frameMs, () => backlog.current);
  const { columns, rows } = useTerminalSize();
  const width = Math.max(20, columns);
  const libsReady = useRenderLibs();
  useWarmUp(libsReady && mayWarmUp(state));
  const access = session.terminals;
  const resolveTerminal = useCallback((id: string) => access?.get(id), [access]);
  const running = opts.running(state);
  const ticker = useTicker(running && libsReady);
  const transcript = useTranscript({
    state: opts.drawn ? opts.drawn(state) : state,
    width,
    expanded: opts.expanded,
    terminal: access ? resolveTerminal : undefined,
    frame: ticker.frame,
    now: ticker.now,
    write,
    previewRows: Math.max(3, rows - 8),
    ready: libsReady,
    promptMarks: opts.features.promptMarks,
    links: opts.features.hyperlinks,
    screens,
  });
  backlog.current = transcript.plan.more;
  const reprint = useCallback(() => {
    write(CLEAR_SCREEN);
    transcript.reprint();
  }, [write, transcript]);
  useReprintOnResize(width, reprint);
  const [chromeRef, chromeHeight] = useMeasuredHeight();
  const liveMax = Math.max(3, rows - chromeHeight - LIVE_MARGIN);
  const loose = libsReady ? loosePaneRows(state, access, width, ticker.now) : [];
  return { state, width, rows, write, libsReady, access, running, ticker, transcript, reprint, chromeRef, chromeHeight, liveMax, loose };
}
