import { useCallback, useRef, type RefObject } from "react";
import type { DOMElement } from "ink";
import { useStdout } from "ink";
import type { SessionState } from "../../session/state.js";
import type { TerminalAccess } from "../../terminals/terminal-access.js";
import type { SessionSource } from "../session-port.js";
import { loosePaneRows } from "../transcript/loose-panes.js";
import { looseTerminals } from "../transcript/pane-sizes.js";
import { sameItemsButNewest } from "../transcript/live-tail.js";
import type { TerminalFeatures } from "../tty/terminal-features.js";
import { useMeasuredHeight } from "./use-measured-height.js";
import { mayWarmUp } from "../render/warm-up.js";
import { useRenderLibs, useWarmUp } from "./use-render-libs.js";
import { CLEAR_SCREEN, useReprintOnResize } from "./use-reprint-on-resize.js";
import { useSessionState, type TailDraw } from "./use-session-state.js";
import { useTerminalSize } from "./use-terminal-size.js";
import { tickWithFrame, useTicker } from "./use-ticker.js";
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
  /** The whole frame (the view's root): a terminal that loses rows it fills has the transcript printed again. */
  frameRef: RefObject<DOMElement | null>;
  /** The chrome under the live region: its measured height leaves `liveMax` rows to the live region. */
  chromeRef: RefObject<DOMElement | null>;
  /** The chrome's measured height (a prompt in it takes what the rest leaves). */
  chromeHeight: number;
  /** Measures the chrome again after a part of it rendered alone (the editor, at a key). */
  measureChrome(): void;
  liveMax: number;
  /** Rows of running terminals no call shows. */
  loose: string[];
}

/**
 * Whether the live items from `from` on may show a clock (a tool call's spinner or elapsed time, a
 * pane), or a loose pane is drawn: the view then redraws at every tick. A streaming message alone
 * needs no tick; the status line ticks by itself.
 */
function showsClock(state: SessionState, from: number): boolean {
  for (let i = from <= state.items.length ? from : 0; i < state.items.length; i++) {
    const kind = state.items[i].kind;
    if (kind === "tool" || kind === "shell") return true;
  }
  return looseTerminals(state).length > 0;
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
  const tailDraw = useRef<TailDraw | undefined>(undefined);
  const { state, screens } = useSessionState(session, opts.frameMs, () => backlog.current, tailDraw);
  const { columns, rows } = useTerminalSize();
  const width = Math.max(20, columns);
  const libsReady = useRenderLibs();
  useWarmUp(libsReady && mayWarmUp(state), () => mayWarmUp(session.state));
  const access = session.terminals;
  const resolveTerminal = useCallback((id: string) => access?.get(id), [access]);
  const running = opts.running(state);
  // Where the live items began at the last render: only they can show a clock.
  const liveFrom = useRef(0);
  const clock = running && libsReady && showsClock(state, liveFrom.current);
  const ticker = useTicker(clock);
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
  liveFrom.current = state.items.length - transcript.plan.live.length;
  const { tail, planAhead } = transcript;
  // Text on the newest item, and nothing else moved: the live region draws it alone, while the
  // App's other parts read nothing that changed (the status line says "working" while prompting).
  tailDraw.current =
    libsReady && !clock && !opts.drawn && tail.shown
      ? (next) => {
          if (next.phase !== "prompting") return false;
          const drawn = tail.current();
          const items = drawn && drawn.state.seq > state.seq ? drawn.items : transcript.plan.live;
          const plan = planAhead(next);
          if (plan.more || plan.preview.length > 0 || !sameItemsButNewest(items, plan.live)) return false;
          tickWithFrame();
          tail.show({ state: next, items: plan.live, preview: plan.preview });
          return true;
        }
      : undefined;
  const reprint = useCallback(() => {
    write(CLEAR_SCREEN);
    transcript.reprint();
  }, [write, transcript]);
  const frameRef = useRef<DOMElement | null>(null);
  useReprintOnResize(width, reprint, frameRef);
  const [chromeRef, chromeHeight, measureChrome] = useMeasuredHeight();
  const liveMax = Math.max(3, rows - chromeHeight - LIVE_MARGIN);
  const loose = libsReady ? loosePaneRows(state, access, width, ticker.now) : [];
  return {
    state,
    width,
    rows,
    write,
    libsReady,
    access,
    running,
    ticker,
    transcript,
    reprint,
    frameRef,
    chromeRef,
    chromeHeight,
    measureChrome,
    liveMax,
    loose,
  };
}
