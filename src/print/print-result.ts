import type { StopReason } from "@agentclientprotocol/sdk";
import { EXIT, type ExitCode } from "../errors/conch-error.js";
import { displayStatus, type ContextUsage, type PromptUsage, type SessionState, type ToolDisplayStatus } from "../session/state.js";

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
  toolCalls: { id: string; title: string; kind: string | null; status: ToolDisplayStatus; durationMs: number | null }[];
  permissionsDenied: { toolCallId: string; title: string; rule?: string }[];
  durationMs: number;
  exitCode: number;
  error: string | null;
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

/** Permission requests a policy or a rule refused during this run. */
export function deniedByPolicy(state: SessionState, turns: Set<string>): PrintResult["permissionsDenied"] {
  return Object.values(state.toolCalls)
    .filter(
      (t) =>
        turns.has(t.turnId) &&
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
  const denied = deniedByPolicy(state, turns);
  const stopReason = promptTurn?.stopReason ?? null;
  return {
    type: "result",
    sessionId: state.info?.sessionId ?? null,
    agent: state.info?.agentName ?? null,
    stopReason,
    text,
    usage: promptTurn?.usage ?? null,
    context: state.usage ?? null,
    toolCalls: Object.values(state.toolCalls)
      .filter((t) => turns.has(t.turnId))
      .map((t) => ({
        id: t.toolCallId,
        title: t.title,
        kind: t.kind ?? null,
        status: displayStatus(t),
        durationMs: t.endedAt !== undefined ? t.endedAt - t.startedAt : null,
      })),
    permissionsDenied: denied,
    durationMs: opts.now - opts.startedAt,
    exitCode: exitCodeFor(stopReason, { error, denied: denied.length, timedOut: opts.timedOut, interrupted: opts.interrupted }),
    error,
  };
}
