import { processTreeAlive, signalProcessTree, trackProcessTree, type ProcessRoot, type TreeMember } from "./process-tree.js";

/**
 * Ends a command conch started and every process it started (its process group, and daemons that
 * left it: see `collectProcessTree`): a signal now, SIGKILL after a grace period for any of them
 * still there. The tree is on conch's exit-kill list from the start until `forgetAfterGrace`.
 */
export class CommandKill {
  /** Every process of the tree signalled so far, to escalate to SIGKILL. */
  private signalled: TreeMember[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly forgetTree: () => void;

  constructor(
    private readonly root: ProcessRoot,
    private readonly graceMs: number,
  ) {
    this.forgetTree = trackProcessTree(root);
  }

  /** Signals the tree; SIGKILL follows after the grace period if any of it is still there. */
  kill(signal: NodeJS.Signals): void {
    this.signalled = signalProcessTree(this.root, signal, this.signalled);
    if (signal === "SIGKILL" || this.timer) return;
    this.timer = setTimeout(() => {
      if (processTreeAlive(this.root, this.signalled)) this.signalled = signalProcessTree(this.root, "SIGKILL", this.signalled);
    }, this.graceMs);
    // A pending escalation must not keep conch alive; the exit hook covers that case.
    this.timer.unref();
  }

  /**
   * The tree leaves the exit-kill list (the command exited and was released), but only after the
   * SIGKILL escalation has had its chance at what the command left running.
   */
  forgetAfterGrace(): void {
    const timer = setTimeout(() => this.forgetTree(), this.graceMs + 100);
    timer.unref();
  }
}
