import { useEffect, useRef, useState, type RefObject } from "react";
import type { SessionState } from "../../session/state.js";
import type { SessionSource } from "../session-port.js";

/** One frame at ~30 fps: the most often the transcript is redrawn while an agent streams. */
export const FRAME_MS = 33;

/**
 * A frame while only the text of the newest message grew (an agent streaming its answer or a
 * thought): the text arrives in a few more words a step, and every frame of the stream, which
 * draws the whole App, costs a third less. Anything else (a tool call, a prompt, the end of the
 * turn) that comes when no text frame waits is drawn at FRAME_MS (one that comes while a text
 * frame waits shows with it, at most 17 ms later), and a key at once: the editor renders itself.
 */
export const TEXT_FRAME_MS = 50;

/**
 * A frame while a long backlog is written (a resumed session): each frame of the App draws the
 * newest screenful again and takes a slice of the backlog's time, and a replay still arriving
 * changes the state every frame; 10 a second keep that screen current.
 */
export const SLOW_FRAME_MS = 100;

/** The session state plus a counter that moves when only a terminal screen changed. */
export interface SessionSnapshot {
  state: SessionState;
  /** Bumped when terminal screens changed, so panes redraw even without a state change. */
  screens: number;
}

/**
 * Frame-coalescing scheduler: many `request()` calls within one frame run `flush` once. The first
 * request after a quiet frame flushes at once (typing stays instant); the rest wait for the frame
 * to end. Never drops the last request.
 */
export class FrameScheduler {
  private timer?: ReturnType<typeof setTimeout>;
  private last = -Infinity;

  constructor(
    private readonly flush: () => void,
    private readonly frameMs: number | (() => number) = FRAME_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  request(): void {
    if (this.timer) return;
    const frameMs = typeof this.frameMs === "number" ? this.frameMs : this.frameMs();
    const wait = this.last + frameMs - this.now();
    if (wait <= 0) {
      this.run();
      return;
    }
    this.timer = setTimeout(() => this.run(), wait);
  }

  private run(): void {
    this.timer = undefined;
    this.last = this.now();
    this.flush();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** What a chunk of text also moves: the event count, the block marker, when the agent last spoke. */
const TEXT_CHUNK_MOVES = new Set<keyof SessionState>(["items", "seq", "blockBreak", "lastAgentActivityAt"]);

/**
 * `next` differs from `prev` only by text added to the newest transcript item, a message or a
 * thought (what every chunk of a streaming answer does): nothing else of the state is another
 * object. Anything else, or a new item, is a change of another kind.
 */
export function onlyTextGrew(prev: SessionState, next: SessionState): boolean {
  if (prev === next || prev.items.length !== next.items.length || next.items.length === 0) return false;
  for (const key of Object.keys(next) as (keyof SessionState)[]) if (!TEXT_CHUNK_MOVES.has(key) && next[key] !== prev[key]) return false;
  const last = next.items.length - 1;
  for (let i = 0; i < last; i++) if (next.items[i] !== prev.items[i]) return false;
  const a = prev.items[last];
  const b = next.items[last];
  // Text is only ever appended to an item: its length says it grew (comparing the text would cost
  // a long message's whole length at every change).
  return a.id === b.id && (b.kind === "agent" || b.kind === "thought") && b.kind === a.kind && b.text.length > a.text.length;
}

/**
 * Draws a state whose only change is more text on the newest message or thought without
 * rendering the App (the live region alone: `LiveTail`); false when it cannot, and the App renders.
 */
export type TailDraw = (state: SessionState) => boolean;

/**
 * Subscribes to the session and re-renders at most once per frame with its latest state. The
 * orchestrator may publish thousands of chunk events a second; each frame shows them all at once.
 * `slow()` says when frames may come further apart (`SLOW_FRAME_MS`). A frame that only adds text
 * to the newest message goes to `tail` first: what it draws is the state every later render of
 * the App starts from, so no render goes back to an older one.
 */
export function useSessionState(
  port: SessionSource,
  frameMs = FRAME_MS,
  slow: () => boolean = () => false,
  tail?: RefObject<TailDraw | undefined>,
): SessionSnapshot {
  const [, setSnapshot] = useState<SessionSnapshot | undefined>(undefined);
  const latest = useRef<SessionSnapshot | null>(null);
  latest.current ??= { state: port.state, screens: 0 };
  const slowNow = useRef(slow);
  slowNow.current = slow;
  const terminals = port.terminals;
  useEffect(() => {
    let screens = latest.current!.screens;
    let screensChanged = false;
    let drawn = port.state;
    // A caller that asks for its own frame time (tests: every change at once) gets it for text too.
    // The scheduler asks for the frame time once a frame, not at every change (a flood makes tens
    // of thousands a second), so a change that comes while a text frame waits shows with it.
    const textFrameMs = frameMs === FRAME_MS ? TEXT_FRAME_MS : frameMs;
    const scheduler = new FrameScheduler(
      () => {
        const state = port.state;
        const textOnly = !screensChanged && onlyTextGrew(drawn, state);
        drawn = state;
        if (latest.current!.state === state && !screensChanged) return;
        latest.current = { state, screens };
        screensChanged = false;
        if (textOnly && tail?.current?.(state)) return;
        setSnapshot(latest.current);
      },
      () => {
        if (slowNow.current()) return Math.max(frameMs, SLOW_FRAME_MS);
        return !screensChanged && onlyTextGrew(drawn, port.state) ? textFrameMs : frameMs;
      },
    );
    // A pane's frame comes with its output: the output's state change and the screen change are
    // told one after the other in one call, and are drawn as one frame, not a frame at once for the
    // first and another a frame later for the second (two renders of the App per pane frame).
    let asked = false;
    let subscribed = true;
    const request = (): void => {
      if (asked) return;
      asked = true;
      queueMicrotask(() => {
        asked = false;
        if (subscribed) scheduler.request();
      });
    };
    const offState = port.subscribe(request);
    const offScreens = terminals?.onScreenChange(() => {
      screens++;
      screensChanged = true;
      request();
    });
    // The state may have moved between the first render and this subscription.
    scheduler.request();
    return () => {
      subscribed = false;
      offState();
      offScreens?.();
      scheduler.dispose();
    };
  }, [port, terminals, frameMs, tail]);
  return latest.current;
}
