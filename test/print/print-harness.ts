import type { PrintIo, PrintSession } from "../../src/print/run-print.js";

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
