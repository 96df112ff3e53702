import { authHelp, planAuth } from "../agents/auth-methods.js";
import type { ResolvedAgent } from "../agents/presets.js";
import { ConchError, messageOf } from "../errors/conch-error.js";
import type { PermissionPolicy } from "../orchestrator/permission-policy.js";
import type { Orchestrator } from "../orchestrator/orchestrator.js";
import { isFinalStatus, type SessionState, type Turn } from "../session/state.js";
import type { OutputFormat } from "./output-format.js";
import { buildPrintResult, exitReason, type AgentExitFacts, type PrintResult } from "./print-result.js";
import { TextStream, type PrintSinks } from "./text-stream.js";
import { StreamJsonMapper } from "./stream-json.js";
import { WriteBatch } from "./write-batch.js";
import { writeResultJson } from "./result-json.js";
import { RetiredCalls } from "./retired-calls.js";
import { safeLine, safeText } from "../text/terminal-safe.js";

/** After `--timeout`, how long the cancelled turn may take to end before the run reports anyway. */
const TIMEOUT_GRACE_MS = 2000;
/**
 * After Ctrl-C, how long the agent may take to end the cancelled turn. With the agent's stop
 * (session/close 1 s, then EOF, SIGTERM and SIGKILL of its tree within 2.3 s) conch is gone within
 * 5 s of the first Ctrl-C, whatever the agent does.
 */
const CANCEL_WAIT_MS = 1000;

/** What a print run does: one prompt, reported in one format. */
export interface PrintRunOptions {
  prompt: string;
  /** Mode and model to switch to before the prompt. */
  mode?: string;
  model?: string;
  outputFormat: OutputFormat;
  timeoutMs?: number;
  policy: PermissionPolicy;
}

/** What the composition root (cli/) hands print mode: a session built and ready to open. */
export interface PrintSession {
  /** The session: its state and events, and the intents a print run uses. */
  session: Pick<
    Orchestrator,
    "state" | "subscribe" | "subscribeEach" | "until" | "send" | "cancel" | "removeQueued" | "setMode" | "setModel" | "shutdown" | "killNow"
  > &
    Partial<Pick<Orchestrator, "retireCalls" | "holdReadsWhile">>;
  /** Starts the agent and opens the session; rejects with the typed error when it cannot. */
  open(): Promise<void>;
  /** Closes the session's log, once the session was shut down. */
  closeLog(): Promise<void>;
  /** Writes the log and the index now, and says what of the run could not be kept (a full disk). */
  keep(): Promise<{ warnings: string[]; lost?: string }>;
  /** The agent, to say how to log in to it when the run cannot. */
  agent: ResolvedAgent;
}

/** Where a print run writes, and how it hears about Ctrl-C (tests pass their own). */
export interface PrintIo extends PrintSinks {
  onInterrupt(handler: () => void): () => void;
  /** Resolves once stdout has taken what was written (its buffer below its mark), or is gone. */
  drained?(): Promise<void>;
  /** Whether stdout's buffer is over its mark (a reader slower than conch): reading the agent waits for `drained`. */
  backedUp?(): boolean;
}

/**
 * Runs one prompt headless and reports it: streamed text, one JSON result, or JSON lines. Waits
 * for the turn to really end (the orchestrator's draining) before it reports. Returns the exit code.
 */
export async function runPrint(opts: PrintRunOptions, run: PrintSession, io: PrintIo): Promise<number> {
  const startedAt = Date.now();
  const orch = run.session;
  let fromTurn = 0;
  let timedOut = false;
  let interrupted = false;
  /** Why the run ended before its prompt went out. */
  let startError: ConchError | null = null;
  let agentExit: AgentExitFacts | undefined;

  /** A test of a turn id, answered once per turn: one of this run's turns (from `fromTurn` on) for which `also` holds. */
  const runTurnTest = (also: (turn: Turn) => boolean = () => true) => {
    const known = new Map<string, boolean>();
    return (turnId: string, state: SessionState = orch.state): boolean => {
      if (!started) return false;
      let is = known.get(turnId);
      if (is === undefined) {
        const at = state.turns.findIndex((t) => t.id === turnId);
        known.set(turnId, (is = at >= fromTurn && also(state.turns[at])));
      }
      return is;
    };
  };
  const isOurs = runTurnTest();
  const writes = new WriteBatch();
  const toOut = (t: string) => io.out(t);
  const toErr = (t: string) => io.err(t);
  const out = (t: string) => writes.push(toOut, t);
  const text = new TextStream({ out, err: (t) => writes.push(toErr, t) }, isOurs, { raw: io.rawOut === true });
  let started = false;
  const streamJson = new StreamJsonMapper(orch.state);
  // A finished call leaves the session's state once nothing may ask for it again: a run of 100,000
  // calls keeps their result lines (~90 B each), not their records and transcript entries (~1 KB).
  const retired = new RetiredCalls();
  /** A turn whose calls the result lists (as `buildPrintResult` chooses them): this run's, not replayed history. */
  const isRunTurn = runTurnTest((turn) => turn.origin !== "history");
  // A reader slower than conch: what it has not taken stays in the agent's pipe, not in stdout's queue.
  if (io.drained && io.backedUp) orch.holdReadsWhile?.(() => (io.backedUp?.() ? io.drained?.() : undefined));
  orch.retireCalls?.({
    // The calls the result lists leave the state; those of a resumed history stay.
    owns: (turnId) => isRunTurn(turnId),
    passed: (passed) => {
      retired.add(passed);
      streamJson.forget(passed);
    },
    recall: (ids, at) => {
      const calls = retired.recall(ids, at);
      streamJson.remember(calls);
      return calls;
    },
  });
  const unsubscribeState = orch.subscribe((_state, ev) => {
    if (ev?.type === "agent_exited") agentExit = ev;
    // After the batch: its text goes out in one piece.
    if (opts.outputFormat === "text") text.settle();
  });
  // Each event read against the session as it left it, not as a whole burst did: what a call's
  // lines say does not depend on where the pipe's reads split the agent's output.
  const unsubscribeEach = orch.subscribeEach((state, ev) => {
    if (opts.outputFormat === "text") text.update(state);
    else if (opts.outputFormat === "stream-json") {
      const lines = streamJson.textFor(state, ev);
      if (lines) out(lines);
    }
  });
  const unsubscribe = () => {
    unsubscribeState();
    unsubscribeEach();
  };

  const cancelTimers: (() => void)[] = [];
  const finish = async (): Promise<number> => {
    for (const c of cancelTimers) c();
    // A command that outlived the turn ends when conch stops the agent: the result and the stream say
    // that, not "running" (still subscribed, so text and stream-json print the call's last status).
    const { openToolIds, toolCalls } = orch.state;
    if ([...openToolIds].some((id) => toolCalls[id]?.detached && !isFinalStatus(toolCalls[id]))) await orch.shutdown();
    unsubscribe();
    const kept = await run.keep();
    const result: PrintResult = buildPrintResult(orch.state, {
      fromTurn,
      startedAt,
      now: Date.now(),
      timedOut,
      interrupted,
      error: startError?.message ?? null,
      agentExit,
      kept,
      retired,
    });
    if (opts.outputFormat === "text") {
      text.finish();
      writes.flush();
      // stderr is a person's terminal more often than not: the agent's words there go through the gate.
      if (result.error) io.err(`conch: ${safeText(result.error)}\n`);
      const tail = result.error ? orch.state.failure?.stderrTail : undefined;
      if (tail) io.err(`--- last lines of the agent's stderr ---\n${safeText(tail)}\n`);
      for (const d of result.permissionsDenied)
        io.err(
          `conch: permission refused by ${d.rule ? `rule ${safeLine(d.rule)}` : `policy --permissions ${opts.policy}`}: ${safeLine(d.title)}\n`,
        );
      // Said as it happened, while the run went on; what it cost is said now.
      if (kept.lost) io.err(`conch: ${kept.lost}\n`);
      if (timedOut) io.err(`conch: timed out after ${seconds(opts.timeoutMs ?? 0)}\n`);
      const why = timedOut ? undefined : exitReason(result, interrupted);
      if (why) io.err(`conch: ${why}\n`);
    } else {
      if (result.error && orch.state.failure?.stderrTail)
        (result as PrintResult & { stderrTail?: string }).stderrTail = orch.state.failure.stderrTail;
      writes.flush();
      const drained = io.drained?.bind(io);
      if (opts.outputFormat === "json") await writeResultJson(result, 2, toOut, drained);
      else await writeResultJson(streamJson.resultLine(result), 0, toOut, drained);
    }
    retired.close();
    await orch.shutdown();
    await run.closeLog();
    return result.exitCode;
  };

  /** Stops the run: a prompt still waiting in the queue is withdrawn, the turn is cancelled. */
  const stop = () => {
    for (const q of orch.state.queue) orch.removeQueued(q.id);
    orch.cancel();
  };
  /** Resolves on the first Ctrl-C (`first`) and on the second (`again`). */
  let onFirst: () => void = () => undefined;
  let onAgain: () => void = () => undefined;
  const firstInterrupt = new Promise<void>((resolve) => (onFirst = resolve));
  const secondInterrupt = new Promise<void>((resolve) => (onAgain = resolve));
  const offInterrupt = io.onInterrupt(() => {
    if (interrupted) {
      // A second Ctrl-C: stop waiting for the agent.
      orch.killNow();
      onAgain();
      return;
    }
    interrupted = true;
    onFirst();
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
    await Promise.race([
      run.open(),
      timedOutPromise.then(() => Promise.reject(new ConchError("timeout", "timed out while starting the agent"))),
    ]);
  } catch (err) {
    // The session's state has the failure too (a `failed` event), with the agent's stderr tail.
    startError = err instanceof ConchError ? err : new ConchError("agent-start", messageOf(err));
    return finish();
  }
  // Interrupted while the session opened: the agent is already being stopped.
  if (interrupted) return finish();
  if (orch.state.auth) {
    // Print mode cannot walk a person through a login: say exactly what to run instead.
    const plans = orch.state.auth.methods.map((m) => planAuth(m, run.agent.command));
    startError = new ConchError("login-needed", `${orch.state.auth.message}\n${authHelp(run.agent.name, plans)}`);
    return finish();
  }
  startError = await switchModeAndModel(orch, opts);
  if (startError) return finish();
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
  const grace = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      cancelTimers.push(() => clearTimeout(timer));
      void Promise.race([done, secondInterrupt]).then(() => resolve());
    });
  // Interrupted, the agent gets a moment to answer the cancel; one that ignores it does not hold
  // the run: the result is printed and the agent's tree stopped (finish) within CANCEL_WAIT_MS plus
  // the stop's own bound, and a second Ctrl-C does not wait at all.
  await Promise.race([done, timedOutPromise.then(() => grace(TIMEOUT_GRACE_MS)), firstInterrupt.then(() => grace(CANCEL_WAIT_MS))]);
  return finish();
}

/** `--mode` / `--model`: switch before the prompt; the first refusal, when the agent refuses. */
async function switchModeAndModel(orch: PrintSession["session"], opts: PrintRunOptions): Promise<ConchError | null> {
  const mode = opts.mode ? await orch.setMode(opts.mode) : undefined;
  // The model config option where there is one; the unstable session/set_model only as a fallback.
  const model = opts.model ? await orch.setModel(opts.model) : undefined;
  return mode ?? model ?? null;
}

/** A duration as a person reads it: "1 s", "0.5 s", "90 s" (as `--timeout` takes it). */
function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
