import type { StopReason } from "@agentclientprotocol/sdk";
import { EXIT, type ExitCode } from "../errors/conch-error.js";
import { isIndexKey } from "../session/retire-calls.js";
import type { ContextUsage, PromptUsage, SessionState, ToolCallView } from "../session/state.js";
import { resultCall, type ResultCall, type RetiredCalls } from "./retired-calls.js";

/** The result object of `--output-format json`, and the last line of `stream-json`. */
export interface PrintResult {
  type: "result";
  sessionId: string | null;
  agent: string | null;
  stopReason: StopReason | null;
  /** The agent's text of this run: the prompt's turn and any turns the agent started after it. */
  text: string;
  usage: PromptUsage | null;
  context: ContextUsage | null;
  /** A list, or, when calls left the state as the run went (`RetiredCalls`), the calls read back in order as they are written (`compact`: unparsed). */
  toolCalls: Iterable<ResultCall> & { compact?(): Iterable<string> };
  permissionsDenied: { toolCallId: string; title: string; rule?: string }[];
  durationMs: number;
  exitCode: number;
  error: string | null;
  /** What conch could not keep of the run (its session log on a full disk), each as told on stderr. */
  warnings: string[];
}

/** The turns of this run: from the first prompt this process sent (history excluded). */
function runTurnIds(state: SessionState, fromTurn: number): Set<string> {
  return new Set(
    state.turns
      .slice(fromTurn)
      .filter((t) => t.origin !== "history")
      .map((t) => t.id),
  );
}

/** Permission requests a policy or a rule refused during this run (`calls`: the run's). */
function deniedByPolicy(calls: readonly ToolCallView[]): PrintResult["permissionsDenied"] {
  return calls
    .filter(
      (t) =>
        (t.permission?.source === "policy" || t.permission?.source === "rule") &&
        (t.permission.optionKind?.startsWith("reject") || t.permission.outcome === "cancelled"),
    )
    .map((t) => ({
      toolCallId: t.toolCallId,
      title: t.title,
      ...(t.permission?.rule ? { rule: `${t.permission.rule.text} ${t.permission.rule.from}` } : {}),
    }));
}

/** How the agent process ended, as `agent_exited` reports it. */
export interface AgentExitFacts {
  code: number | null;
  signal: string | null;
}

/**
 * Whether the agent's exit ended the run rather than failed it: it exited with code 0 after it had
 * answered this run's prompt. Some agents end a one-shot run that way, right after `end_turn`.
 */
export function exitedAfterAnswer(state: SessionState, fromTurn: number, exit: AgentExitFacts | undefined): boolean {
  if (!exit || exit.code !== 0 || exit.signal) return false;
  const promptTurn = state.turns.slice(fromTurn).find((t) => t.origin === "user");
  return promptTurn?.stopReason !== undefined && !promptTurn.error;
}

/** The exit code a run ends with, from how its prompt turn ended. */
export function exitCodeFor(
  stopReason: StopReason | null,
  opts: { error?: string | null; denied: number; timedOut: boolean; interrupted: boolean },
): ExitCode {
  if (opts.interrupted) return EXIT.interrupted;
  if (opts.timedOut) return EXIT.timeout;
  if (opts.error) return EXIT.failed;
  if (opts.denied > 0) return EXIT.permissionRefused;
  switch (stopReason) {
    case "end_turn":
      return EXIT.ok;
    case "refusal":
      return EXIT.refusal;
    case "max_tokens":
    case "max_turn_requests":
      return EXIT.maxTokens;
    case "cancelled":
      return EXIT.interrupted;
    default:
      return EXIT.failed;
  }
}

/**
 * Why a run ended with a non-zero exit code, in one line for a person, when nothing else says it:
 * an error, a refused permission and a timeout have lines of their own.
 */
export function exitReason(result: Pick<PrintResult, "exitCode" | "stopReason" | "error">, interrupted: boolean): string | undefined {
  if (result.error) return undefined;
  switch (result.exitCode) {
    case EXIT.interrupted:
      return interrupted
        ? "interrupted: the turn was cancelled (exit 130)"
        : "the agent cancelled the turn (stop reason cancelled, exit 130)";
    case EXIT.refusal:
      return "the agent refused to go on (stop reason refusal, exit 6)";
    case EXIT.maxTokens:
      return result.stopReason === "max_turn_requests"
        ? "the agent stopped at its limit of model requests for one turn: the answer may be unfinished (stop reason max_turn_requests, exit 7)"
        : "the agent stopped at its output token limit: the answer is cut off (stop reason max_tokens, exit 7)";
    case EXIT.failed:
      return result.stopReason === null
        ? "the turn ended with no stop reason (exit 1)"
        : `the agent ended the turn with a stop reason conch does not know: ${JSON.stringify(result.stopReason)} (exit 1)`;
    default:
      return undefined;
  }
}

/** Builds the result of a print run from the session state. Pure. */
export function buildPrintResult(
  state: SessionState,
  opts: {
    fromTurn: number;
    startedAt: number;
    now: number;
    timedOut: boolean;
    interrupted: boolean;
    error?: string | null;
    agentExit?: AgentExitFacts;
    /** What the session's recording could not keep; `lost` when the log misses part of this run. */
    kept?: { warnings: string[]; lost?: string };
    /** The run's calls that left the state as it went: they come before the calls still in it. */
    retired?: RetiredCalls;
  },
): PrintResult {
  const turns = runTurnIds(state, opts.fromTurn);
  const promptTurn = state.turns.slice(opts.fromTurn).find((t) => t.origin === "user");
  const failed = state.phase === "failed" && !exitedAfterAnswer(state, opts.fromTurn, opts.agentExit);
  const text = state.items
    .filter((i) => i.kind === "agent" && turns.has(i.turnId))
    .map((i) => (i as { text: string }).text)
    .join("\n\n");
  const error = opts.error ?? (failed ? (state.failure?.message ?? "the session failed") : (promptTurn?.error ?? null));
  // One pass over the calls: a map of 100,000 of them takes a while to list.
  const calls = Object.values(state.toolCalls).filter((t) => turns.has(t.turnId));
  const denied = deniedByPolicy(calls);
  const stopReason = promptTurn?.stopReason ?? null;
  const exitCode = exitCodeFor(stopReason, { error, denied: denied.length, timedOut: opts.timedOut, interrupted: opts.interrupted });
  const warnings = [...(opts.kept?.warnings ?? [])];
  if (opts.kept?.lost && !warnings.includes(opts.kept.lost)) warnings.push(opts.kept.lost);
  return {
    type: "result",
    sessionId: state.info?.sessionId ?? null,
    agent: state.info?.agentName ?? null,
    stopReason,
    text,
    usage: promptTurn?.usage ?? null,
    context: state.usage ?? null,
    toolCalls: opts.retired?.count ? new ResultCallList(calls, opts.retired, state.toolCalls) : calls.map(resultCall),
    permissionsDenied: denied,
    durationMs: opts.now - opts.startedAt,
    // A run that went well but was not kept as asked is no success: its own code. Any other code says more.
    exitCode: exitCode === EXIT.ok && opts.kept?.lost ? EXIT.notSaved : exitCode,
    error,
    warnings,
  };
}

/**
 * The calls of a run some of whose calls left the state, in the order the state would list them all:
 * calls with an index-like id first (an object lists those first; none of them leaves), then those
 * the retirement passed (gone, or kept in the state), then the rest. Read in pieces, never whole.
 */
class ResultCallList implements Iterable<ResultCall> {
  constructor(
    /** The run's calls still in the state, in its order. */
    private readonly live: readonly ToolCallView[],
    private readonly retired: RetiredCalls,
    private readonly state: Readonly<Record<string, ToolCallView>>,
  ) {}

  /** The calls' result lines, compact JSON: those spooled as they were written, unparsed. */
  *compact(): Generator<string> {
    let i = 0;
    for (; i < this.live.length && isIndexKey(this.live[i].toolCallId); i++) yield JSON.stringify(resultCall(this.live[i]));
    yield* this.retired.resultLines(this.state);
    // The calls the passes kept come next in the state, and were listed with the passed ones, as
    // were the calls a late update brought back.
    for (i += this.retired.kept; i < this.live.length; i++)
      if (!this.retired.isRestored(this.live[i].toolCallId)) yield JSON.stringify(resultCall(this.live[i]));
  }

  *[Symbol.iterator](): Generator<ResultCall> {
    for (const line of this.compact()) yield JSON.parse(line) as ResultCall;
  }

  toJSON(): ResultCall[] {
    return [...this];
  }
}
