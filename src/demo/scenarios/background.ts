import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { sleep } from "../abortable-sleep.js";
import { sendFollowUp } from "../agent-follow-up.js";
import { describeExit, waitForExitOrCancel } from "../client-terminal-run.js";
import { supportsTerminalOutputMeta } from "../demo-environment.js";
import type { Turn } from "../turn.js";
import type { Scenario } from "./scenario.js";

/** The follow-up the agent sends on its own once the job is done. */
export const BACKGROUND_FOLLOW_UP = "The background job finished: done.";

/**
 * `background`: start a job, answer `end_turn` while it still runs, and report
 * its end later with no prompt pending. How the job is shown depends on what
 * the client offers: a display-only agent terminal (`_meta.terminal_output`),
 * a client terminal (`terminal/create`), or just a tool call.
 */
export const backgroundScenario: Scenario = {
  name: "background",
  keywords: ["background"],
  summary: "starts a job, ends the turn while it runs, and reports back on its own when it finishes",
  async run(turn) {
    const command = `sleep ${seconds(turn.config.backgroundMs)}; echo done`;
    if (supportsTerminalOutputMeta(turn.capabilities)) await startWithDisplayTerminal(turn, command);
    else if (turn.capabilities.terminal) await startWithClientTerminal(turn, command);
    else await startSimulated(turn, command);
    if (turn.cancelled) return;
    await turn.say(`I started \`${command}\` in the background. This turn ends now; I'll tell you when the job is done.`);
  },
};

/** The agent runs the job itself and streams its output as `_meta` on the tool call; the terminal id is the tool call id. */
async function startWithDisplayTerminal(turn: Turn, command: string): Promise<void> {
  const { session, config } = turn;
  const toolCallId = turn.newToolCallId("bg");
  const terminalId = toolCallId;
  await turn.send(
    jobStarted(toolCallId, command, { type: "terminal", terminalId }, { terminal_info: { terminal_id: terminalId, cwd: session.cwd } }),
  );
  turn.runAfterTurn(toolCallId, async (signal) => {
    await sleep(config.backgroundMs, signal);
    if (signal.aborted) {
      await session.send({
        sessionUpdate: "tool_call_update",
        toolCallId,
        status: "failed",
        _meta: { terminal_exit: { terminal_id: terminalId, exit_code: null, signal: "SIGTERM" } },
      });
      return;
    }
    await session.send(terminalOutput(toolCallId, "done\r\n"));
    await session.send({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: "completed",
      _meta: { terminal_exit: { terminal_id: terminalId, exit_code: 0, signal: null } },
    });
    await sendFollowUp(session, BACKGROUND_FOLLOW_UP, config, toolCallId);
  });
  await turn.send(terminalOutput(toolCallId, "working...\r\n"));
}

/** The client runs the job in one of its terminals; the agent waits for the exit after the turn. */
async function startWithClientTerminal(turn: Turn, command: string): Promise<void> {
  const { session, config } = turn;
  const handle = await turn.client.createTerminal({
    sessionId: session.id,
    command: "sh",
    args: ["-c", `echo working...; ${command}`],
    cwd: session.cwd,
  });
  const toolCallId = turn.newToolCallId("bg");
  const terminal: ToolCallContent = { type: "terminal", terminalId: handle.id };
  turn.runAfterTurn(toolCallId, async (signal) => {
    try {
      const exit = await waitForExitOrCancel(handle, signal);
      if (!exit) {
        await handle.kill().catch(() => undefined);
        await session.send(closeUpdate(toolCallId, "failed", [terminal], "cancelled: the job was killed"));
        return;
      }
      const { output } = await handle.currentOutput();
      const result = { exitCode: exit.exitCode ?? null, signal: exit.signal ?? null, output };
      await session.send({
        ...closeUpdate(toolCallId, result.exitCode === 0 ? "completed" : "failed", [terminal], describeExit(result)),
        rawOutput: result,
      });
      const lastLine = output.trim().split(/\r?\n/).pop() ?? "";
      await sendFollowUp(session, `The background job finished: ${lastLine}.`, config, toolCallId);
    } finally {
      await handle.release().catch(() => undefined);
    }
  });
  await turn.send(jobStarted(toolCallId, command, terminal));
}

/** No terminal of any kind: the tool call alone stays `in_progress` until the pretend job ends. */
async function startSimulated(turn: Turn, command: string): Promise<void> {
  const { session, config } = turn;
  const toolCallId = turn.newToolCallId("bg");
  await turn.send(jobStarted(toolCallId, command, textContent("running in the background (simulated: the client offers no terminal)")));
  turn.runAfterTurn(toolCallId, async (signal) => {
    await sleep(config.backgroundMs, signal);
    if (signal.aborted) {
      await session.send(closeUpdate(toolCallId, "failed", [], "cancelled"));
      return;
    }
    await session.send(closeUpdate(toolCallId, "completed", [], "done"));
    await sendFollowUp(session, BACKGROUND_FOLLOW_UP, config, toolCallId);
  });
}

/** The `tool_call` that announces the background job, however it is shown. */
function jobStarted(toolCallId: string, command: string, content: ToolCallContent, meta?: Record<string, unknown>) {
  return {
    sessionUpdate: "tool_call" as const,
    toolCallId,
    title: command,
    kind: "execute" as const,
    status: "in_progress" as const,
    rawInput: { command },
    content: [content],
    ...(meta ? { _meta: meta } : {}),
  };
}

function terminalOutput(toolCallId: string, data: string) {
  return {
    sessionUpdate: "tool_call_update" as const,
    toolCallId,
    _meta: { terminal_output: { terminal_id: toolCallId, data } },
  };
}

function closeUpdate(toolCallId: string, status: "completed" | "failed", before: ToolCallContent[], text: string) {
  return {
    sessionUpdate: "tool_call_update" as const,
    toolCallId,
    status,
    content: [...before, textContent(text)],
  };
}

function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

/** `sleep` takes seconds; keep it exact for short test durations ("0.05") and tidy for long ones ("2"). */
function seconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}
