import type { RequestControl } from "../acp/agent-connection.js";
import type { AgentRequests } from "./ports.js";

/**
 * conch's own requests still waiting for the agent (a session/load, a settings change, a login):
 * giving up on one aborts it, which sends `$/cancel_request` and stops waiting.
 */
export class OwnRequests implements AgentRequests {
  private readonly inFlight = new Set<AbortController>();

  /** `caughtUp` runs once each request is over: the event queue handles the updates a burst still holds. */
  constructor(private readonly caughtUp: () => void) {}

  /** Runs one request so that `abandonAll` can give it up; `mark` aborts too, so the caller can tell. */
  async run<R>(call: (ctl: RequestControl) => Promise<R>, mark?: AbortController): Promise<R> {
    const controller = new AbortController();
    if (mark) controller.signal.addEventListener("abort", () => mark.abort(), { once: true });
    this.inFlight.add(controller);
    try {
      return await call({ signal: controller.signal });
    } finally {
      this.inFlight.delete(controller);
      // The updates the agent sent before its answer are in the state when the caller goes on.
      this.caughtUp();
    }
  }

  /** Gives up every request still waiting (`$/cancel_request` for each). */
  abandonAll(): void {
    for (const controller of [...this.inFlight]) controller.abort();
    this.inFlight.clear();
  }
}
