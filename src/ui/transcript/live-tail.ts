import type { SessionState, TranscriptItem } from "../../session/state.js";

/** A live region drawn for a newer state than the App's last render. */
export interface TailView {
  state: SessionState;
  items: TranscriptItem[];
  preview: string[];
}

/**
 * The live region's own frames: while an agent streams, a frame whose only change is more text
 * on the newest message or thought is drawn by the live region alone (`LiveTailRegion`), not by a
 * render of the whole App, whose other parts read nothing that changed. The region is shown while
 * one is mounted; the App draws every other frame as before.
 */
export class LiveTail {
  private view?: TailView;
  private mounted = 0;
  private readonly listeners = new Set<() => void>();

  /** Whether a live region that takes these frames is on screen. */
  get shown(): boolean {
    return this.mounted > 0;
  }

  /** Draws `view`: the live region renders it at once (and its printed rows go out in the same commit). */
  show(view: TailView): void {
    this.view = view;
    for (const listener of this.listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    this.mounted++;
    return () => {
      this.listeners.delete(listener);
      this.mounted--;
    };
  };

  readonly current = (): TailView | undefined => this.view;
}

/**
 * `next` is `drawn` with only its newest item grown: the same items up to the last, and the last
 * the same item (a live region that holds other items, or more or fewer, is for the App to draw).
 */
export function sameItemsButNewest(drawn: readonly TranscriptItem[], next: readonly TranscriptItem[]): boolean {
  if (drawn.length !== next.length || next.length === 0) return false;
  const last = next.length - 1;
  for (let i = 0; i < last; i++) if (drawn[i] !== next[i]) return false;
  return drawn[last].id === next[last].id;
}
