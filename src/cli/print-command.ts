import { loadConfig } from "../agents/config-file.js";
import { EXIT, exitCodeOf, messageOf } from "../errors/conch-error.js";
import { runPrint } from "../print/run-print.js";
import type { Command } from "./parse-args.js";
import { readStdin } from "./read-stdin.js";
import { startControl } from "./control-setup.js";
import { prepareSession } from "./session-setup.js";

/**
 * `conch -p`: reads the prompt (arguments, then stdin), chooses the permission policy, builds the
 * session and hands it to print mode. Returns the exit code.
 */
export async function runPrintCommand(cmd: Extract<Command, { kind: "print" }>): Promise<number> {
  let config;
  try {
    config = loadConfig(cmd.cwd, process.env, { trust: cmd.trust });
  } catch (err) {
    process.stderr.write(`conch: ${messageOf(err)}\n`);
    return exitCodeOf(err);
  }
  const piped = process.stdin.isTTY ? undefined : await readStdin(process.stdin);
  const prompt = [cmd.prompt, piped?.trim() ? piped : undefined].filter(Boolean).join("\n\n");
  if (!prompt) {
    process.stderr.write("conch: -p needs a prompt, as an argument or on stdin (see conch --help)\n");
    return EXIT.usage;
  }
  const asked = cmd.permissions ?? config.permissions ?? (process.stdin.isTTY ? "ask" : "deny");
  if (asked === "ask") {
    process.stderr.write("conch: print mode cannot ask for permission; using --permissions deny (pass --permissions to choose)\n");
  }
  const policy = asked === "ask" ? "deny" : asked;
  let prepared;
  try {
    prepared = await prepareSession(cmd, policy);
  } catch (err) {
    process.stderr.write(`conch: ${messageOf(err)}\n`);
    return exitCodeOf(err);
  }
  const { orchestrator, recorder, agent, mode } = prepared;
  const control = await startControl(orchestrator, recorder);
  // A reader that goes away (`conch -p … | head -2`) makes stdout fail with EPIPE: the run is then
  // stopped as by Ctrl-C (the agent stopped, the log closed), with no stack trace and no more writes.
  let readerGone = false;
  const code = await runPrint(
    { prompt, mode: cmd.mode, model: cmd.model, outputFormat: cmd.outputFormat, timeoutMs: cmd.timeoutMs, policy },
    {
      session: orchestrator,
      open: () => orchestrator.start(mode),
      closeLog: () => {
        control?.close();
        return recorder.close();
      },
      keep: () => recorder.report(),
      agent,
    },
    {
      out: (t) => {
        if (!readerGone) process.stdout.write(t);
      },
      rawOut: !process.stdout.isTTY,
      drained: () => stdoutDrained(() => readerGone),
      backedUp: () => !readerGone && process.stdout.writableNeedDrain,
      err: (t) => process.stderr.write(t),
      onInterrupt: (handler) => {
        // Every signal that would end conch ends the run instead: the agent is stopped, never orphaned.
        const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
        for (const signal of signals) process.on(signal, handler);
        const onStdoutError = () => {
          if (readerGone) return;
          readerGone = true;
          handler();
        };
        process.stdout.on("error", onStdoutError);
        return () => {
          for (const signal of signals) process.off(signal, handler);
        };
      },
    },
  );
  if (!readerGone) await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
  return code;
}

/** Resolves once stdout's buffer is below its mark again, or at once when it is, or stdout is gone. */
function stdoutDrained(gone: () => boolean): Promise<void> {
  const out = process.stdout;
  if (gone() || !out.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off("drain", done);
      out.off("error", done);
      out.off("close", done);
      resolve();
    };
    out.on("drain", done);
    out.on("error", done);
    out.on("close", done);
  });
}
