import { useEffect, useRef, useState } from "react";
import type { SessionState } from "../../session/state.js";
import type { SessionSource } from "../session-port.js";

/** One frame at ~30 fps: the most often the transcript is redrawn while an agent streams. */
export const FRAME_MS = 33;

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

/**
 * Subscribes to the session and re-renders at most once per frame with its latest state. The
 * orchestrator may publish thousands of chunk events a second; each frame shows them all at once.
 * `slow()` says when frames may come further apart (`SLOW_FRAME_MS`).
 */
export function useSessionState(port: SessionSource, frameMs = FRAME_MS, slow: () => boolean = () => false): SessionSnapshot {
  const [snapshot, setSnapshot] = useState<SessionSnapshot>(() => ({ state: port.state, screens: 0 }));
  const terminals = port.terminals;
  const slowNow = useRef(slow);
  slowNow.current = slow;
  useEffect(() => {
    let screens = 0;
    let screensChanged = false;
    const scheduler = new FrameScheduler(
      () => {
        const state = port.state;
        setSnapshot((prev) => (prev.state === state && !screensChanged ? prev : { state, screens }));
        screensChanged = false;
      },
      () => (slowNow.current() ? Math.max(frameMs, SLOW_FRAME_MS) : frameMs),
    );
    const offState = port.subscribe(() => scheduler.request());
    const offScreens = terminals?.onScreenChange(() => {
      screens++;
      screensChanged = true;
      scheduler.request();
    });
    // The state may have moved between the first render and this subscription.
    scheduler.request();
    return () => {
      offState();
      offScreens?.();
      scheduler.dispose();
    };
  }, [port, terminals, frameMs]);
  return snapshot;
}
