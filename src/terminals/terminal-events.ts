import { ListenerSet, type Unsubscribe } from "./listener-set.js";
import type { ExitStatus } from "./terminal.js";

/** The listeners both kinds of terminal offer: raw output, exit, and parsed-screen changes. */
export abstract class TerminalEvents {
  protected readonly outputListeners = new ListenerSet<string>();
  protected readonly exitListeners = new ListenerSet<ExitStatus>();
  protected readonly screenListeners = new ListenerSet<void>();

  /** Raw output as it arrives. */
  onOutput(listener: (data: string) => void): Unsubscribe {
    return this.outputListeners.add(listener);
  }

  /** Fires once, after the screen has parsed all output. */
  onExit(listener: (status: ExitStatus) => void): Unsubscribe {
    return this.exitListeners.add(listener);
  }

  /** The screen parsed new output; fires often, so consumers throttle redraws. */
  onScreenChange(listener: () => void): Unsubscribe {
    return this.screenListeners.add(listener);
  }
}
