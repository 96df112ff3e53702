import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import { RegistryTerminalService } from "../../src/orchestrator/terminals/terminal-service.js";
import { displayStatus } from "../../src/session/state.js";
import { REPLAY, ROOT, tempDir } from "../support/run-conch.js";
import { untilState } from "../support/until-state.js";
import { flush, startWithFake } from "./fake-agent.js";

const CMD = "sleep 1; echo tick; sleep 6; echo done";
const running: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((o) => o.shutdown()));
});

describe("a command that outlived its turn, as conch stops the agent", () => {
  it("codex 2.x reports the exec it kills at session/close `failed` (exit -1) before the close's answer: it ended with the agent, no exit status", async () => {
    // The fixture is the kit's codex-next c5-unfinished p1 at FAKE_MODEL_LATENCY_MS=3000 in the order
    // that failed the kit: the `failed` update came before the `session/close` answer (other runs
    // get the answer first, and no update at all).
    const cwd = tempDir();
    const trace = path.resolve(ROOT, "test/fixtures/traces/codex2-c5-unfinished-close-race.jsonl");
    const orch = new Orchestrator({
      agent: {
        name: "replay",
        command: { command: process.execPath, args: [REPLAY, trace, "--causal", "--speed", "8", "--project", cwd] },
        via: "command",
      },
      cwd,
      policy: "ask",
      timing: { quietMs: 400, stallMs: 60_000 },
      terminals: (emit, root) => new RegistryTerminalService(emit, root),
    });
    running.push(orch);
    const seen: string[] = [];
    orch.subscribe((s, ev) => {
      const tool = s.toolCalls.call_c5u_exec;
      if (ev?.type === "update" && tool?.status === "failed") seen.push(`failed update, shown ${displayStatus(tool)}`);
    });
    await orch.start();
    orch.send("Start the slow command and don't wait for it.");
    await untilState(orch, (s) => s.phase === "idle" && s.toolCalls.call_c5u_exec?.detached === true);
    await orch.shutdown();
    // The race happened: the agent's `failed` came while conch stopped it.
    expect(seen).toEqual(["failed update, shown ended_with_agent"]);
    const tool = orch.state.toolCalls.call_c5u_exec;
    expect(displayStatus(tool)).toBe("ended_with_agent");
    expect(orch.state.terminals[tool.terminalId!]).toMatchObject({ exited: true, exitCode: null });
  });

  it("a quit during the turn: the cancel leaves the command running (codex 2.x), the close kills it, and it ended with the agent all the same", async () => {
    const { orch, agent } = await startWithFake(
      {},
      {
        agentInfo: { name: "@agentclientprotocol/codex-acp", version: "2.6.0" },
        agentCapabilities: { sessionCapabilities: { close: {} } },
      },
    );
    const conn = agent.conn as unknown as Record<string, unknown>;
    // As codex-acp 2.6.0 does: the cancel answers the prompt at once and leaves the exec running;
    // the close kills it and reports that before its own answer.
    conn.cancel = async () => agent.respond(0, "cancelled");
    conn.closeSession = async () => {
      await flush();
      agent.update({
        sessionUpdate: "tool_call_update",
        toolCallId: "x",
        status: "failed",
        _meta: { terminal_exit: { exit_code: -1, signal: null, terminal_id: "x" } },
      });
      return {};
    };
    orch.send("Run sleep 30.");
    agent.update({
      sessionUpdate: "tool_call",
      toolCallId: "x",
      title: CMD,
      kind: "execute",
      status: "in_progress",
      _meta: { terminal_info: { terminal_id: "x" } },
    });
    await flush();
    await orch.shutdown();
    expect(orch.state.toolCalls.x.status).toBe("failed");
    expect(displayStatus(orch.state.toolCalls.x)).toBe("ended_with_agent");
    expect(orch.state.terminals.x).toMatchObject({ exited: true, exitCode: null });
  });
});
