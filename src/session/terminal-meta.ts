/**
 * The display-only terminal extension of claude-agent-acp and codex-acp: a tool call's `_meta`
 * carries `terminal_info` (opens), `terminal_output` / `terminal_output_delta` (bytes) and
 * `terminal_exit` (closes). The terminal id is the tool call id in every agent seen so far.
 */
export interface TerminalMeta {
  info?: { terminalId: string; cwd?: string };
  output?: { terminalId: string; data: string };
  exit?: { terminalId: string; exitCode: number | null; signal: string | null };
}

const STREAM_KEYS = ["terminal_info", "terminal_output", "terminal_output_delta", "terminal_exit"];

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function terminalIdOf(value: Record<string, unknown>, fallback: string | undefined): string | undefined {
  const id = value.terminal_id ?? value.terminalId;
  return typeof id === "string" ? id : fallback;
}

/** Reads the terminal extension out of a tool call's `_meta`; junk yields nothing, never a throw. */
export function readTerminalMeta(meta: unknown, fallbackId?: string): TerminalMeta {
  const m = record(meta);
  if (!m) return {};
  const out: TerminalMeta = {};
  const info = record(m.terminal_info);
  if (info) {
    const terminalId = terminalIdOf(info, fallbackId);
    if (terminalId) out.info = { terminalId, cwd: typeof info.cwd === "string" ? info.cwd : undefined };
  }
  const output = record(m.terminal_output) ?? record(m.terminal_output_delta);
  if (output) {
    const terminalId = terminalIdOf(output, fallbackId);
    const data = output.data ?? output.delta;
    if (terminalId && typeof data === "string") out.output = { terminalId, data };
  }
  const exit = record(m.terminal_exit);
  if (exit) {
    const terminalId = terminalIdOf(exit, fallbackId);
    const code = exit.exit_code ?? exit.exitCode;
    const signal = exit.signal;
    if (terminalId) {
      out.exit = {
        terminalId,
        exitCode: typeof code === "number" ? code : null,
        signal: typeof signal === "string" ? signal : null,
      };
    }
  }
  return out;
}

/** `_meta` without the terminal byte streams, which live in the terminal, not the tool call. */
export function metaWithoutTerminalStreams(meta: unknown): Record<string, unknown> {
  const m = record(meta);
  if (!m) return {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) if (!STREAM_KEYS.includes(k) || k === "terminal_info") rest[k] = v;
  return rest;
}
