import { useSyncExternalStore } from "react";

/** How often running things (spinners, elapsed times) are redrawn. */
const TICK_MS = 100;

/**
 * One clock for every spinner: a tick asks for a frame only when none was drawn for a tick's time,
 * so while an agent streams (frames 30 times a second anyway) spinners cost no frames of their own,
 * and two components that tick never draw two frames for one tick.
 */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;
let ticks = 0;
let lastDrawnAt = 0;
/** The tick (`now / TICK_MS`) the clocks last drew. */
let lastDrawnTick = -1;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => {
    if (Date.now() - lastDrawnAt < TICK_MS * 0.8) return;
    ticks++;
    for (const l of listeners) l();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * A frame is drawn without a render of the App (the live region alone, `LiveTail`): the clocks
 * (the status line's spinner) move in it when their tick is due, as in a frame of the App, and no
 * tick draws a frame of its own meanwhile. React renders both in one commit: one frame.
 */
export function tickWithFrame(): void {
  const now = Date.now();
  lastDrawnAt = now;
  if (Math.floor(now / TICK_MS) === lastDrawnTick) return;
  ticks++;
  for (const l of listeners) l();
}

const still = () => () => undefined;
const tickCount = () => ticks;

/** A frame number and clock read as this render draws, moving at least every tick while `active`. */
export function useTicker(active: boolean): { frame: number; now: number } {
  useSyncExternalStore(active ? subscribe : still, tickCount);
  const now = Date.now();
  lastDrawnAt = now;
  lastDrawnTick = Math.floor(now / TICK_MS);
  return { frame: Math.floor(now / TICK_MS), now };
}
