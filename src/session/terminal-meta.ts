/*
 * The display-only terminal extension of claude-agent-acp and codex-acp. It lives in session/
 * because the pure reducer reads it; terminals/ re-exports it.
 */
import { isRecord } from "../json/record.js";

/** `_meta.terminal_info`: an agent-owned terminal opens (its id is the tool call id). */
export interface TerminalInfoMeta {
  terminalId: string;
  cwd?: string;
}

/** `_meta.terminal_output` (or `terminal_output_delta`): bytes to append, as text. */
export interface TerminalOutputMeta {
  terminalId: string;
  data: string;
}

/** `_meta.terminal_exit`: the agent says the command ended. Both fields may be null (claude reports `{null, null}`). */
export interface TerminalExitMeta {
  terminalId: string;
  exitCode: number | null;
  signal: string | null;
}

/** The terminal facts one tool call `_meta` carries; a `_meta` can hold several at once. */
export interface TerminalMeta {
  info?: TerminalInfoMeta;
  output?: TerminalOutputMeta;
  exit?: TerminalExitMeta;
}

/**
 * Reads the display-terminal extension from a `tool_call` / `tool_call_update` `_meta` (as sent by
 * claude-agent-acp and codex-acp when the client advertises `_meta.terminal_output`). Anything
 * malformed is skipped, never thrown: `_meta` is free-form and other keys are common.
 */
export function readTerminalMeta(meta: unknown, fallbackId?: string): TerminalMeta {
  const result: TerminalMeta = {};
  if (!isRecord(meta)) return result;

  const info = meta.terminal_info;
  const infoId = terminalIdOf(info, fallbackId);
  if (infoId !== undefined) {
    result.info = { terminalId: infoId };
    const cwd = isRecord(info) ? info.cwd : undefined;
    if (typeof cwd === "string" && cwd !== "") result.info.cwd = cwd;
  }

  const output = readOutput(meta.terminal_output, fallbackId) ?? readOutput(meta.terminal_output_delta, fallbackId);
  if (output) result.output = output;

  const exit = meta.terminal_exit;
  const exitId = terminalIdOf(exit, fallbackId);
  if (exitId !== undefined && isRecord(exit)) {
    const code = exit.exit_code ?? exit.exitCode;
    const signal = exit.signal;
    result.exit = {
      terminalId: exitId,
      exitCode: typeof code === "number" && Number.isFinite(code) ? code : null,
      signal: typeof signal === "string" && signal !== "" ? signal : null,
    };
  }
  return result;
}

/** Whether a `_meta` holds any terminal facts, to skip work on the many that do not. */
export function hasTerminalMeta(meta: TerminalMeta): boolean {
  return meta.info !== undefined || meta.output !== undefined || meta.exit !== undefined;
}

function readOutput(value: unknown, fallbackId?: string): TerminalOutputMeta | undefined {
  const terminalId = terminalIdOf(value, fallbackId);
  if (terminalId === undefined || !isRecord(value) || typeof value.data !== "string") return undefined;
  return { terminalId, data: value.data };
}

function terminalIdOf(value: unknown, fallbackId?: string): string | undefined {
  if (!isRecord(value)) return undefined;
  // The agents send snake_case; camelCase is accepted in case an adapter follows ACP's own style.
  // Every agent seen so far uses the tool call id as the terminal id: it is the fallback.
  const id = value.terminal_id ?? value.terminalId;
  return typeof id === "string" && id !== "" ? id : fallbackId;
}

const STREAM_KEYS = new Set(["terminal_output", "terminal_output_delta", "terminal_exit"]);

/** No `_meta`: one object for every call without any (a flood's calls each kept one of their own). */
const NO_META: Record<string, unknown> = Object.freeze({});

/** `_meta` without the terminal byte streams, which live in the terminal, not the tool call. */
export function metaWithoutTerminalStreams(meta: unknown): Record<string, unknown> {
  if (!isRecord(meta)) return NO_META;
  const rest: Record<string, unknown> = {};
  let kept = false;
  for (const [k, v] of Object.entries(meta))
    if (!STREAM_KEYS.has(k)) {
      rest[k] = v;
      kept = true;
    }
  return kept ? rest : NO_META;
}
