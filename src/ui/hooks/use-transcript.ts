import { useCallback, useEffect, useInsertionEffect, useMemo, useRef, useState } from "react";
import type { SessionState, TranscriptItem } from "../../session/state.js";
import { RowCache, type RowOptions } from "../transcript/row-cache.js";
import { TranscriptPrinter, type PrintPlan } from "../transcript/transcript-printer.js";
import { toolTerminalIds } from "../transcript/settled-items.js";
import { LiveTail } from "../transcript/live-tail.js";
import { RowQueue } from "../transcript/row-queue.js";
import { warmUpSteps } from "../render/warm-up.js";

/**
 * A slice of a long backlog: short enough that a key typed meanwhile waits less than a frame. The
 * echo of a key also waits for the terminal to take in the rows written before it, so a slice
 * writes little at a time (at 20 ms, keys typed while 2,000 turns were written waited ~100 ms).
 */
const SLICE_MS = 8;

/**
 * How often a backlog's rows are written while less than a piece (BACKLOG_PIECE) waits. Each write takes the live region off the screen and
 * draws it again under the new rows (Ink's write), so at every 8 ms slice the preview was redrawn
 * ~125 times a second: a third of the bytes a resume wrote. Slices still yield to keys every 8 ms.
 */
const BACKLOG_WRITE_MS = 32;

/**
 * The most one write of a backlog's rows holds (UTF-16 units, about bytes). While the terminal is
 * behind (a PTY's queue holds ~20 KB), conch waits in the write (a TTY's writes block) and reads
 * no key: at 32 ms of rows a write (20-150 KB), a key waited up to ~50 ms behind one. A piece is
 * about what the queue holds; keys are read between pieces.
 */
export const BACKLOG_PIECE = 16 * 1024;

/** More settled items than this waiting: a backlog (a resumed session, a reprint), written in slices from the start. */
const BACKLOG_ITEMS = 100;

const NOTHING: PrintPlan = { rows: [], live: [], preview: [], more: false };
/** A backlog's first frame waits while its preview's rows are drawn, a task at a time: nothing is drawn meanwhile, as before the libraries load. */
const PRIMING: PrintPlan = { rows: [], live: [], preview: [], more: false };
/** At most this many items are drawn ahead for the first frame's preview (a replay that keeps adding new ones is not chased). */
const PRIMING_ITEMS = 50;

/** What the transcript hook needs from the app. */
export interface TranscriptOptions extends RowOptions {
  state: SessionState;
  /** Writes to the terminal above the live region (Ink's `useStdout().write`). */
  write(data: string): void;
  /** Rows the backlog preview may take. */
  previewRows: number;
  /** The transcript's libraries are loaded: until then nothing is printed or drawn. */
  ready: boolean;
  /** Mark prompts and answers in the scrollback (OSC 133). */
  promptMarks?: boolean;
  /** Moves when a terminal screen changed: an item held for its pane's last output may print now. */
  screens?: number;
}

/** The transcript as the app draws it. */
export interface TranscriptView {
  plan: PrintPlan;
  /** Rows of a live item (kept between frames while it does not change); of a message whose beginning is printed, the rest. */
  rowsOf(item: TranscriptItem): string[];
  /** Whether a live item goes on from rows already in the scrollback (no blank row before it). */
  continued(item: TranscriptItem): boolean;
  /** Clears nothing on screen, but nothing printed so far is printed again (/clear). */
  skipPrinted(): void;
  /** Prints everything again from the top (the screen was cleared, e.g. after a resize). */
  reprint(): void;
  /** The live region's own frames (`LiveTail`). */
  tail: LiveTail;
  /**
   * The plan for a state newer than this render's, made outside a render (a frame the live region
   * draws alone): its rows wait for `flush`, which the next commit does, whoever renders.
   */
  planAhead(state: SessionState): PrintPlan;
  /**
   * Writes the rows planned and not written yet to the scrollback; while a backlog is written in
   * slices, they are left to its writer (nothing the live region draws depends on them).
   */
  flush(): void;
}

/** A tool call whose terminal's screen does not show all its output yet: printed once, it would miss the last lines. */
function paneStillParsing(item: TranscriptItem, state: SessionState, terminal: RowOptions["terminal"]): boolean {
  if (item.kind !== "tool" || !terminal) return false;
  const tool = state.toolCalls[item.toolCallId];
  return tool !== undefined && toolTerminalIds(tool).some((id) => terminal(id)?.parsing === true);
}

/**
 * The transcript in transcript order: settled items are written once to the scrollback, straight
 * to the terminal (no layout engine), in the same commit that takes them out of the live region;
 * a long backlog goes out in slices, one per turn of the event loop, so keys are handled between them.
 */
export function useTranscript(opts: TranscriptOptions): TranscriptView {
  const { state, width, expanded, write } = opts;
  const cache = useRef<RowCache | null>(null);
  cache.current ??= new RowCache();
  const printer = useRef<TranscriptPrinter | null>(null);
  printer.current ??= new TranscriptPrinter(
    (item, w) => cache.current!.settled(item, stateRef.current, { ...optsRef.current, width: w }),
    undefined,
    (item, w) => cache.current!.stable(item, w),
    (item, s) => paneStillParsing(item, s, optsRef.current.terminal),
  );
  printer.current.marks = opts.promptMarks === true;
  const stateRef = useRef(state);
  stateRef.current = state;
  const optsRef = useRef<TranscriptOptions>(opts);
  optsRef.current = opts;
  const tail = useRef<LiveTail | null>(null);
  tail.current ??= new LiveTail();
  // A new slice of the backlog, or a new epoch after /clear or a reprint.
  const [slice, setSlice] = useState(0);
  /**
   * Rows planned and not written yet, in the order the printer gave them: every plan adds its rows
   * here and every write takes them from the front, so they reach the terminal in transcript order
   * whoever writes them (a commit, or the backlog's writer between commits).
   */
  const unwritten = useRef<RowQueue | null>(null);
  unwritten.current ??= new RowQueue();
  const lastWrite = useRef(0);
  const writeRows = useCallback(
    (max?: number) => {
      const text = unwritten.current!.take(max);
      if (text === undefined) return;
      lastWrite.current = performance.now();
      write(text);
    },
    [write],
  );

  /**
   * A backlog is being written in slices: a render then only plans what to draw and leaves the
   * rows to the next slice, so a render (a new state while a session replays) is not a slice longer.
   */
  const backlog = useRef(false);
  /** The last plan took rows out of the live region (it was not a backlog's, which plans none): the commit writes them. */
  const leftLive = useRef(false);
  /** The first backlog's preview is drawn, a task at a time (later ones, a reprint, draw it in their render). */
  const primed = useRef(false);
  const plan = useMemo(
    () => {
      if (!opts.ready) return NOTHING;
      const printing = printer.current!;
      const inBacklog = backlog.current || printing.waiting(state) > BACKLOG_ITEMS;
      // Only a backlog's first frame: one that began in an earlier render (its slice ran out of
      // time) showed its preview already, and a frame without it would take the newest rows off the screen.
      if (inBacklog && !primed.current && !backlog.current) return PRIMING;
      leftLive.current = !inBacklog;
      const next = printing.plan(state, width, inBacklog ? 0 : SLICE_MS, opts.previewRows);
      backlog.current = next.more;
      unwritten.current!.push(next.rows);
      return next;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [state, width, expanded, slice, opts.ready, opts.screens],
  );

  // Before Ink draws this commit's frame: the rows leave the live region and reach the scrollback
  // at once. A backlog's rows were in no frame (it shows the newest rows, which are not planned
  // yet): they are left to the backlog's writer, so the echo of a key does not wait behind them.
  const flush = useCallback(() => {
    if (leftLive.current || !backlog.current) writeRows();
  }, [writeRows]);
  useInsertionEffect(flush);

  // The rest of the backlog, a slice per macrotask (keys are handled between them). While the
  // live region would draw the same (the same state, the same preview of the newest rows), a
  // slice is written straight out, under the same frame: no render of the App per slice.
  // Meanwhile a piece (BACKLOG_PIECE) is written a macrotask once a piece waits, else what waits
  // once BACKLOG_WRITE_MS have passed since the last write; a slice is planned only while less than
  // a piece waits (a terminal that is behind holds the slices back).
  useEffect(() => {
    if (!plan.more) return;
    // setImmediate, not setTimeout(0): keys read in the poll phase still come between slices, and
    // a slice does not wait the 1 ms a timer of 0 is clamped to (a ninth of a 8 ms slice).
    let timer: ReturnType<typeof setImmediate>;
    const step = () => {
      const rows = unwritten.current!;
      let next: PrintPlan | undefined;
      if (rows.size < BACKLOG_PIECE) {
        next = printer.current!.plan(stateRef.current, optsRef.current.width, SLICE_MS, opts.previewRows);
        backlog.current = next.more;
        rows.push(next.rows);
      }
      if (stateRef.current === state && (!next || (next.more && sameRows(next.preview, plan.preview)))) {
        if (rows.size >= BACKLOG_PIECE || performance.now() - lastWrite.current >= BACKLOG_WRITE_MS) writeRows(BACKLOG_PIECE);
        timer = setImmediate(step);
      } else setSlice((n) => n + 1);
    };
    timer = setImmediate(step);
    return () => clearImmediate(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [plan]);

  // A resumed session's first frame: the warm-up's steps (marked's expressions, sample messages),
  // then the rows of the items its preview shows, newest first, each in a macrotask of its own; the
  // frame that shows them then draws nothing. Drawn in its render, cold, it was one task of 80-160 ms
  // with keys waiting.
  useEffect(() => {
    if (plan !== PRIMING) return;
    const steps = warmUpSteps();
    let drawn = 0;
    let timer: ReturnType<typeof setImmediate>;
    const step = () => {
      const warm = steps.shift();
      if (warm) warm();
      else if (
        drawn++ >= PRIMING_ITEMS ||
        !printer.current!.drawPreviewItem(stateRef.current, optsRef.current.width, optsRef.current.previewRows)
      ) {
        primed.current = true;
        setSlice((n) => n + 1);
        return;
      }
      timer = setImmediate(step);
    };
    timer = setImmediate(step);
    return () => clearImmediate(timer);
  }, [plan]);

  useEffect(() => {
    // While the first frame waits (PRIMING) nothing is live: the kept rows of live items stay.
    if (plan !== PRIMING) cache.current!.keepOnly(new Set(plan.live.map((i) => i.id)));
  }, [plan]);

  // A streaming message whose beginning is in the scrollback shows only the rest here.
  const rowsOf = useCallback((item: TranscriptItem) => {
    const rows = cache.current!.live(item, stateRef.current, optsRef.current);
    const printed = printer.current!.printedRowsOf(item);
    return printed > 0 ? rows.slice(printed) : rows;
  }, []);
  const continued = useCallback((item: TranscriptItem) => printer.current!.printedRowsOf(item) > 0, []);
  const planAhead = useCallback((next: SessionState) => {
    // The rows of the live items are drawn for this state from now on (rowsOf reads it).
    stateRef.current = next;
    leftLive.current = true;
    const ahead = printer.current!.plan(next, optsRef.current.width, SLICE_MS, optsRef.current.previewRows);
    backlog.current = ahead.more;
    unwritten.current!.push(ahead.rows);
    return ahead;
  }, []);
  const skipPrinted = useCallback(() => {
    printer.current!.skip(stateRef.current);
    unwritten.current!.clear();
    setSlice((n) => n + 1);
  }, []);
  const reprint = useCallback(() => {
    printer.current!.reset();
    unwritten.current!.clear();
    setSlice((n) => n + 1);
  }, []);
  return { plan, rowsOf, continued, skipPrinted, reprint, tail: tail.current, planAhead, flush };
}

function sameRows(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((row, i) => row === b[i]);
}
