import { authHelp, planAuth } from "../agents/auth-methods.js";
import type { PermissionPolicy } from "../orchestrator/permission-policy.js";
import { UsageError, type SessionOptions, type OutputFormat } from "../cli/parse-args.js";
import { prepareSession, SessionNotFoundError } from "../cli/session-setup.js";
import type { Orchestrator } from "../orchestrator/orchestrator.js";
import type { SessionState } from "../session/state.js";
import { ConfigError } from "../agents/config-file.js";
import { buildPrintResult, EXIT, exitedAfterAnswer, type AgentExitFacts, type PrintResult } from "./print-result.js";
import { TextStream, type PrintSinks } from "./text-stream.js";
import { StreamJsonMapper } from "./stream-json.js";
import { safeLine, safeText } from "../text/terminal-safe.js";

/** What a print run needs besides the session options. */
export interface PrintRunOptions extends SessionOptions {
  prompt: string;
  /** Mode and model to switch to before the prompt. */
  mode?: string;
  model?: string;
  outputFormat: OutputFormat;
  timeoutMs?: number;
  policy: PermissionPolicy;
}

/** Where a print run writes, and how it hears about Ctrl-C (tests pass their own). */
export interface PrintIo extends PrintSinks {
  onInterrupt(handler: () => void): () => void;
}

/**
 * Runs one prompt headless and reports it: streamed text, one JSON result, or JSON lines. Waits
 * for the turn to really end (the orchestrator's draining) before it reports. Returns the exit code.
 */
export async function runPrint(opts: PrintRunOptions, io: PrintIo): Promise<number> {
  const startedAt = Date.now();
  let prepared;
  try {
    prepared = await prepareSession(opts, opts.policy);
  } catch (err) {
    io.err(`conch: ${(err as Error).message}\n`);
    return err instanceof SessionNotFoundError
      ? EXIT.sessionNotFound
      : err instanceof UsageError || err instanceof ConfigError
        ? EXIT.usage
        : EXIT.error;
  }
  const { orchestrator: orch, recorder, mode } = prepared;
  let fromTurn = 0;
  let timedOut = false;
  let interrupted = false;
  let startError: string | null = null;
  let agentExit: AgentExitFacts | undefined;

  const ours = new Map<string, boolean>();
  const isOurs = (turnId: string) => {
    if (!started) return false;
    let known = ours.get(turnId);
    if (known === undefined) ours.set(turnId, (known = orch.state.turns.findIndex((t) => t.id === turnId) >= fromTurn));
    return known;
  };
  const text = new TextStream(io, isOurs, { raw: io.rawOut === true });
  let started = false;
  const streamJson = new StreamJsonMapper(orch.state);
  const unsubscribe = orch.subscribe((state, ev) => {
    if (ev?.type === "agent_exited") {
      agentExit = ev;
      // An exit that ends the run normally is not news: no error notice for it.
      if (started && exitedAfterAnswer(state, fromTurn, ev)) text.skip(state.items.at(-1)?.id);
    }
    if (opts.outputFormat === "text") text.update(state);
    else if (opts.outputFormat === "stream-json" && ev)
      for (const line of streamJson.linesFor(state, ev)) io.out(`${JSON.stringify(line)}\n`);
  });

  const cancelTimers: (() => void)[] = [];
  const finish = async (): Promise<number> => {
    for (const c of cancelTimers) c();
    unsubscribe();
    const result: PrintResult = buildPrintResult(orch.state, {
      fromTurn,
      startedAt,
      now: Date.now(),
      timedOut,
      interrupted,
      error: startError,
      agentExit,
    });
    if (opts.outputFormat === "text") {
      text.finish();
      // stderr is a person's terminal more often than not: the agent's words there go through the gate.
      if (result.error) io.err(`conch: ${safeText(result.error)}\n`);
      const tail = result.error ? orch.state.failure?.stderrTail : undefined;
      if (tail) io.err(`--- last lines of the agent's stderr ---\n${safeText(tail)}\n`);
      for (const d of result.permissionsDenied)
        io.err(`conch: permission refused by policy --permissions ${opts.policy}: ${safeLine(d.title)}\n`);
      if (timedOut) io.err(`conch: timed out after ${opts.timeoutMs} ms\n`);
    } else {
      if (result.error && orch.state.failure?.stderrTail)
        (result as PrintResult & { stderrTail?: string }).stderrTail = orch.state.failure.stderrTail;
      const out = opts.outputFormat === "json" ? JSON.stringify(result, null, 2) : JSON.stringify(streamJson.resultLine(result));
      io.out(`${out}\n`);
    }
    await orch.shutdown();
    await recorder.close();
    return result.exitCode;
  };

  /** Stops the run: a prompt still waiting in the queue is withdrawn, the turn is cancelled. */
  const stop = () => {
    for (const q of orch.state.queue) orch.removeQueued(q.id);
    orch.cancel();
  };
  const offInterrupt = io.onInterrupt(() => {
    if (interrupted) {
      // A second Ctrl-C: stop waiting for the agent.
      orch.killNow();
      return;
    }
    interrupted = true;
    // Still starting: there is no turn to cancel, and the start may never end on its own.
    if (!started) void orch.shutdown();
    else stop();
  });
  cancelTimers.push(offInterrupt);
  let timeout: NodeJS.Timeout | undefined;
  const timedOutPromise = new Promise<void>((resolve) => {
    if (!opts.timeoutMs) return;
    timeout = setTimeout(() => {
      timedOut = true;
      stop();
      resolve();
    }, opts.timeoutMs);
  });
  cancelTimers.push(() => timeout && clearTimeout(timeout));

  try {
    await Promise.race([orch.start(mode), timedOutPromise.then(() => Promise.reject(new Error("timed out while starting the agent")))]);
  } catch (err) {
    startError = (err as Error).message;
    return finish();
  }
  // Interrupted while the session opened: the agent is already being stopped.
  if (interrupted) return finish();
  if (orch.state.auth) {
    // Print mode cannot walk a person through a login: say exactly what to run instead.
    const plans = orch.state.auth.methods.map((m) => planAuth(m, prepared.agent.command));
    startError = `${orch.state.auth.message}\n${authHelp(prepared.agent.name, plans)}`;
    return finish();
  }
  const switched = await switchModeAndModel(orch, opts);
  if (switched) {
    startError = switched;
    return finish();
  }
  fromTurn = orch.state.turns.length;
  started = true;
  const ourTurnSent = (s: SessionState) => s.turns.slice(fromTurn).some((t) => t.origin === "user");
  orch.send(opts.prompt);
  // Done when our prompt's turn was sent and the session is idle again (it may wait in the queue
  // behind a turn that is still draining, e.g. right after a resume), or the session failed.
  const done = orch.until(
    (s) =>
      s.phase === "failed" ||
      (s.phase === "idle" && (s.queue.length === 0 || interrupted || timedOut) && (ourTurnSent(s) || interrupted || timedOut)),
  );
  const grace = () => Promise.race([done, new Promise((r) => setTimeout(r, 2000))]);
  await Promise.race([done, timedOutPromise.then(grace)]);
  if (interrupted && orch.state.phase !== "idle" && orch.state.phase !== "failed") await grace();
  return finish();
}

/** `--mode` / `--model`: switch before the prompt; an error message when the agent refuses. */
async function switchModeAndModel(orch: Orchestrator, opts: PrintRunOptions): Promise<string | undefined> {
  const before = orch.state.items.length;
  if (opts.mode) await orch.setMode(opts.mode);
  // The model config option where there is one; the unstable session/set_model only as a fallback.
  if (opts.model) await orch.setModel(opts.model);
  // The orchestrator reports a refused switch as an error notice.
  const refused = orch.state.items.slice(before).find((i) => i.kind === "notice" && i.level === "error");
  return refused && refused.kind === "notice" ? refused.text : undefined;
}
