/**
 * How many messages the hold keeps before reading the agent's output waits too: a short replay is
 * read whole with the agent's answer, and handled in one batch with it as it was before (no frame
 * shows it half replayed); a long one waits in the agent's pipe rather than in conch's memory.
 */
const HOLD_READS_AFTER = 256;

/**
 * An agent's replay held back while conch reads its own log. `session/load` goes out as soon as the
 * agent is up, so the agent reads its store and starts replaying while conch reads and folds the
 * log, instead of after (~110 ms idle on a 2,000-turn resume). But nothing of the replay may be
 * handled before `replay_started`, which carries what that log knew: what the reads brought meanwhile
 * waits here, in arrival order, and past HOLD_READS_AFTER the rest waits in the agent's pipe (`reads`).
 */
export class ReplayHold {
  private waiting: (() => void)[] = [];
  private state: "holding" | "dropping" | "over" = "holding";
  private open!: () => void;
  /** Reading the agent's output waits for this while the hold lasts. */
  readonly reads = new Promise<void>((resolve) => (this.open = resolve));

  /** `burst` makes what waited one batch for the event queue, as one read of the agent's output would be. */
  constructor(private readonly burst?: (phase: "start" | "end") => void) {}

  /** Whether reading waits: a promise while the hold lasts and holds HOLD_READS_AFTER messages. */
  readsHeld(): Promise<void> | undefined {
    return this.state === "holding" && this.waiting.length >= HOLD_READS_AFTER ? this.reads : undefined;
  }

  /** Keeps `deliver` (an update or a signal, delivered later in arrival order) and returns true, or false once the hold is over: deliver it now. */
  take(deliver: () => void): boolean {
    if (this.state === "over") return false;
    if (this.state === "holding") this.waiting.push(deliver);
    return true;
  }

  /** The log is in (`replay_started` dispatched): what waited is delivered in arrival order, and reading goes on. */
  release(): void {
    if (this.state !== "holding") return;
    this.state = "over";
    const waiting = this.waiting;
    this.waiting = [];
    this.burst?.("start");
    try {
      for (const deliver of waiting) deliver();
    } finally {
      this.burst?.("end");
      this.open();
    }
  }

  /** The log could not be read, so the session does not open: what the replay sent, and sends until `settled`, is dropped. */
  drop(settled: Promise<unknown>): void {
    if (this.state !== "holding") return;
    this.state = "dropping";
    this.waiting = [];
    this.open();
    const over = () => {
      this.state = "over";
    };
    settled.then(over, over);
  }
}
