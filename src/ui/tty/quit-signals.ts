/** The signals that end conch: Ctrl-C from outside the UI, a kill, the terminal closed. */
export const QUIT_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** Runs `handler` on each quit signal until the returned function is called. */
export function onQuitSignals(handler: () => void): () => void {
  for (const signal of QUIT_SIGNALS) process.on(signal, handler);
  return () => {
    for (const signal of QUIT_SIGNALS) process.off(signal, handler);
  };
}

/** Waits for an Ink app to end, a quit signal unmounting it; the signals are let go whatever happens. */
export async function untilExitOrSignal(instance: { unmount(): void; waitUntilExit(): Promise<unknown> }): Promise<void> {
  const offSignals = onQuitSignals(() => instance.unmount());
  try {
    await instance.waitUntilExit();
  } finally {
    offSignals();
  }
}
