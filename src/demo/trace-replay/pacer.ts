/**
 * Turns recorded timestamps into real delays, scaled by `speed`. Time is measured from an
 * anchor (the last client message the trace waited for), so the time spent waiting for the
 * client never eats into the recorded gap that follows it.
 */
export class Pacer {
  private anchorWall: number;
  private anchorT: number;
  private pending: { timer: NodeJS.Timeout; resolve: () => void } | undefined;

  constructor(
    private readonly speed: number,
    startT: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(speed > 0)) throw new Error(`speed must be > 0, got ${speed}`);
    this.anchorWall = now();
    this.anchorT = startT;
  }

  /** Recorded time `t` happens now. */
  anchor(t: number): void {
    this.anchorWall = this.now();
    this.anchorT = t;
  }

  /** Resolve when recorded time `t` is due (at once at infinite speed or if already due). */
  wait(t: number): Promise<void> {
    const delay = this.anchorWall + (t - this.anchorT) / this.speed - this.now();
    if (!Number.isFinite(delay) || delay <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending = undefined;
        resolve();
      }, delay);
      this.pending = { timer, resolve };
    });
  }

  /** End a pending wait early so a stopping replay leaves no timer behind. */
  cancel(): void {
    if (!this.pending) return;
    clearTimeout(this.pending.timer);
    this.pending.resolve();
    this.pending = undefined;
  }
}
