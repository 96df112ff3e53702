import type { LaunchView } from "./status/status-text.js";

/**
 * How the agent launch went, outside the session state: a start can fail before the session
 * has anything to say (the agent binary is missing, it died before `initialize`). The runner
 * reports here; the status line reads it.
 */
export class Launch {
  view: LaunchView = { phase: "starting" };
  private listeners = new Set<() => void>();

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Runs a start (or restart), recording its failure for the user. Resolves true when it worked. */
  async run(task: () => Promise<void>): Promise<boolean> {
    this.set({ phase: "starting" });
    try {
      await task();
      this.set({ phase: "ready" });
      return true;
    } catch (err) {
      const e = err as Error & { stderrTail?: string };
      // AgentStartError appends the stderr tail to its message; show it once, as detail.
      const message = (e.message ?? String(err)).split("\n--- last lines")[0];
      this.set({ phase: "failed", message, stderrTail: e.stderrTail });
      return false;
    }
  }

  private set(view: LaunchView): void {
    this.view = view;
    for (const fn of this.listeners) fn();
  }
}
