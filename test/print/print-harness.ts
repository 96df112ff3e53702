import type { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import type { PrintIo, PrintSession } from "../../src/print/run-print.js";
import type { PassedCall, RetiredCallStore } from "../../src/session/retire-calls.js";

/** A print run around `session` that opens and keeps nothing, with sinks that collect what it writes. */
export function fakePrintRun(session: PrintSession["session"]): {
  io: { stdout: string; stderr: string };
  sinks: PrintIo;
  run: PrintSession;
} {
  const io = { stdout: "", stderr: "" };
  const sinks: PrintIo = {
    out: (t) => void (io.stdout += t),
    err: (t) => void (io.stderr += t),
    rawOut: true,
    onInterrupt: () => () => undefined,
  };
  const run: PrintSession = {
    session,
    open: async () => undefined,
    closeLog: async () => undefined,
    keep: async () => ({ warnings: [] }),
    agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
  };
  return { io, sinks, run };
}

/**
 * `orch` as a print run uses it, its finished calls leaving the state once `quiet` events have
 * passed (none: every call stays, as a reference); `passed` hears each pass.
 */
export function retiringAfter(orch: Orchestrator, quiet: number | undefined, passed: (calls: PassedCall[]) => void): Orchestrator {
  return new Proxy(orch, {
    get(target, key) {
      if (key === "retireCalls")
        return quiet === undefined
          ? undefined
          : (store: RetiredCallStore) =>
              target.retireCalls(
                {
                  owns: (turnId) => store.owns(turnId),
                  passed: (calls) => {
                    passed(calls);
                    store.passed(calls);
                  },
                  recall: (ids, at) => store.recall(ids, at),
                },
                quiet,
              );
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  }) as Orchestrator;
}
