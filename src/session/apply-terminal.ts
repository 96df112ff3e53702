import type { Draft } from "./draft.js";
import type { TerminalView } from "./state.js";
import { noteStopped, stopAskedFor } from "./stop-notes.js";
import type { TerminalMeta } from "./terminal-meta.js";

/** Bytes of output the pure state keeps per terminal; the full screen lives in terminals/. */
export const OUTPUT_TAIL_BYTES = 64 * 1024;

function appendTail(tail: string, data: string): string {
  // A flooding pane hands over ~2 MB a frame: its tail is all that is kept, without first copying
  // the old tail and the whole piece into one string.
  if (data.length >= OUTPUT_TAIL_BYTES) return data.slice(data.length - OUTPUT_TAIL_BYTES);
  const next = tail + data;
  return next.length > OUTPUT_TAIL_BYTES ? next.slice(next.length - OUTPUT_TAIL_BYTES) : next;
}

/** Adds bytes to a terminal, or holds them until the terminal is announced. */
export function appendTerminalOutput(d: Draft, terminalId: string, data: string): void {
  const t = d.s.terminals[terminalId];
  if (!t) {
    const o = d.s.orphanTerminalMeta[terminalId] ?? { output: "" };
    d.orphans()[terminalId] = { ...o, output: appendTail(o.output, data) };
    return;
  }
  d.terminals()[terminalId] = { ...t, outputTail: appendTail(t.outputTail, data), outputBytes: t.outputBytes + data.length, lastAt: d.at };
}

/** Records a terminal's exit, or holds it until the terminal is announced. */
export function exitTerminal(d: Draft, terminalId: string, exitCode: number | null, signal: string | null): void {
  const t = d.s.terminals[terminalId];
  if (!t) {
    const o = d.s.orphanTerminalMeta[terminalId] ?? { output: "" };
    d.orphans()[terminalId] = { ...o, exit: { exitCode, signal } };
    return;
  }
  const toolId = t.toolCallId ?? d.s.toolByTerminal.get(terminalId);
  // Stopped with the agent, it has no exit status: the agent's word on the kill (codex 2.x: -1) is not one.
  if (t.exited && toolId !== undefined && d.s.toolCalls[toolId]?.localStatus === "ended_with_agent") return;
  d.terminals()[terminalId] = { ...t, exited: true, exitCode, signal, endedAt: t.endedAt ?? d.at };
  if (t.exited || t.history) return;
  const stopped = stopAskedFor(d.s, toolId, terminalId);
  if (!stopped) return;
  const tool = toolId ? d.s.toolCalls[toolId] : undefined;
  const how = signal ? `signal ${signal}` : exitCode !== null ? `exit ${exitCode}` : undefined;
  noteStopped(d, stopped, tool?.title || t.command || terminalId, how, tool?.turnId ?? d.s.currentTurnId);
}

/** Opens a terminal view and applies whatever arrived for it before it was announced. */
export function openTerminal(d: Draft, view: Omit<TerminalView, "outputTail" | "outputBytes" | "exited" | "lastAt" | "startedAt">): void {
  if (d.s.terminals[view.terminalId]) return;
  const orphan = d.s.orphanTerminalMeta[view.terminalId];
  d.terminals()[view.terminalId] = {
    ...view,
    exited: orphan?.exit !== undefined,
    exitCode: orphan?.exit?.exitCode,
    signal: orphan?.exit?.signal,
    outputTail: orphan?.output ?? "",
    outputBytes: orphan?.output.length ?? 0,
    lastAt: d.at,
    startedAt: d.at,
  };
  if (orphan) delete d.orphans()[view.terminalId];
}

/** Applies a tool call's display-terminal `_meta` (info, output, exit), in that order. */
export function applyTerminalMeta(d: Draft, meta: TerminalMeta, toolCallId: string, history: boolean): void {
  if (meta.info) {
    openTerminal(d, { terminalId: meta.info.terminalId, source: "display", toolCallId, cwd: meta.info.cwd, history });
    const tool = d.tool(toolCallId);
    if (tool && tool.title && !d.s.terminals[meta.info.terminalId].command) {
      d.terminals()[meta.info.terminalId] = { ...d.s.terminals[meta.info.terminalId], command: tool.title };
    }
  }
  if (meta.output) appendTerminalOutput(d, meta.output.terminalId, meta.output.data);
  if (meta.exit) exitTerminal(d, meta.exit.terminalId, meta.exit.exitCode, meta.exit.signal);
}
