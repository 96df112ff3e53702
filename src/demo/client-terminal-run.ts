import type { TerminalHandle, ToolCallContent } from "@agentclientprotocol/sdk";
import { whenAborted } from "./abortable-sleep.js";
import type { Turn } from "./turn.js";

/** A command to run in a client terminal (`terminal/create`), shown as an `execute` tool call. */
export interface TerminalCommand {
  title: string;
  command: string;
  args: string[];
  /** The command as a person would type it, for `rawInput.command`. */
  display: string;
  /** Called once the tool call is on screen, before waiting for the exit (e.g. to tell the user to type). */
  onStarted?: () => Promise<void>;
}

/** How a terminal command ended. */
export interface TerminalResult {
  exitCode: number | null;
  signal: string | null;
  output: string;
}

/**
 * Runs a command in a client terminal and reports it as a tool call: create,
 * announce, wait for exit, read the output, complete, release. On cancel the
 * command is killed and the tool call fails; the result is then `undefined`.
 */
export async function runInClientTerminal(turn: Turn, spec: TerminalCommand): Promise<TerminalResult | undefined> {
  const handle = await turn.client.createTerminal({
    sessionId: turn.session.id,
    command: spec.command,
    args: spec.args,
    cwd: turn.session.cwd,
    outputByteLimit: 64 * 1024,
  });
  const toolCallId = turn.newToolCallId("run");
  const terminal: ToolCallContent = { type: "terminal", terminalId: handle.id };
  try {
    await turn.send({
      sessionUpdate: "tool_call",
      toolCallId,
      title: spec.title,
      kind: "execute",
      status: "in_progress",
      content: [terminal],
      rawInput: { command: spec.display },
    });
    await spec.onStarted?.();
    const exit = await waitForExitOrCancel(handle, turn.signal);
    if (!exit) {
      await handle.kill().catch(() => undefined);
      await turn.send(finalUpdate(toolCallId, "failed", terminal, "cancelled: the command was killed"));
      return undefined;
    }
    const { output } = await handle.currentOutput();
    const result: TerminalResult = { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null, output };
    const status = result.exitCode === 0 ? "completed" : "failed";
    await turn.send({ ...finalUpdate(toolCallId, status, terminal, describeExit(result)), rawOutput: result });
    return result;
  } finally {
    await handle.release().catch(() => undefined);
  }
}

/** Waits for the command's exit; `undefined` when `signal` aborts first. */
export function waitForExitOrCancel(
  handle: TerminalHandle,
  signal: AbortSignal,
): Promise<{ exitCode?: number | null; signal?: string | null } | undefined> {
  return Promise.race([handle.waitForExit(), whenAborted(signal).then(() => undefined)]);
}

/** "exit code 0", or the signal that ended the command. */
export function describeExit(result: { exitCode: number | null; signal: string | null }): string {
  return result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode ?? "unknown"}`;
}

function finalUpdate(toolCallId: string, status: "completed" | "failed", terminal: ToolCallContent, text: string) {
  return {
    sessionUpdate: "tool_call_update" as const,
    toolCallId,
    status,
    content: [terminal, { type: "content" as const, content: { type: "text" as const, text } }],
  };
}
