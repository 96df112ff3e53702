import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import type { ProcessMember } from "../../src/orchestrator/ports.js";
import { RegistryTerminalService } from "../../src/orchestrator/terminals/terminal-service.js";
import type { AgentProcess } from "../../src/session/agent-processes.js";
import { openWork } from "../../src/session/open-work.js";
import { displayStatus } from "../../src/session/state.js";
import { REPLAY, ROOT, tempDir } from "../support/run-conch.js";
import { untilState } from "../support/until-state.js";
import { startWithFake, type FakeAgent } from "./fake-agent.js";

const running: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((o) => o.shutdown()));
});

const CMD = "sleep 1; echo tick; sleep 6; echo done";
const CODEX = { agentInfo: { name: "codex-acp", version: "0.16.0" } };
const CODEX2 = { agentInfo: { name: "@agentclientprotocol/codex-acp", version: "2.6.0" } };

/**
 * The agent's process table (pid 10 its root) lists `processes()`; a prompt starts the call `c1`
 * running CMD, and the agent answers the prompt with the call still in progress.
 */
function runOutlivingCommand(orch: Orchestrator, agent: FakeAgent, processes: () => unknown[]): void {
  (agent as unknown as { processes: () => unknown }).processes = () => ({ rootPid: 10, at: Date.now(), processes: processes() });
  orch.send("Run it");
  agent.update({
    sessionUpdate: "tool_call",
    toolCallId: "c1",
    title: CMD,
    kind: "execute",
    status: "in_progress",
    rawInput: { command: CMD },
  });
  agent.respond(0);
}

describe("what the agent does not say: the process table at a turn's end", () => {
  it("codex 0.16's race (its exec's end lost, as in the fixture: c4-meta without the `completed` update): the card ends, it is not left running", async () => {
    // test/fixtures/traces/codex-c4-race.jsonl is ../shared/traces/codex-acp-0.16.0/c4-meta.jsonl with
    // its one `tool_call_update status:completed` line taken out: the race the kit's c4 can lose.
    const cwd = tempDir();
    const trace = path.resolve(ROOT, "test/fixtures/traces/codex-c4-race.jsonl");
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
    await orch.start();
    orch.send("Run the slow command and wait for it.");
    const s = await untilState(orch, (st) => st.turns[0]?.stopReason !== undefined && st.phase === "idle");
    const [tool] = Object.values(s.toolCalls);
    expect(displayStatus(tool)).toBe("ended");
    expect(openWork(s)).toEqual([]);
    expect(Object.values(s.terminals)[0]).toMatchObject({ exited: true, exitCode: null });
    expect((await orch.listTasks()).filter((t) => t.running)).toEqual([]);
  });

  it("a command still among the agent's processes is watched; once gone (looked at twice), it ends with a line in the transcript", async () => {
    let alive = true;
    const stopped: ProcessMember[][] = [];
    const probe = {
      running: (members: readonly ProcessMember[]) => (alive ? [...members] : []),
      stop: async (members: readonly ProcessMember[]) => {
        stopped.push([...members]);
        alive = false;
      },
    };
    const { orch, agent } = await startWithFake({ processProbe: probe }, CODEX);
    running.push(orch);
    const proc = (pid: number, ppid: number, argv: string[]): AgentProcess => ({
      pid,
      ppid,
      start: `${pid}0`,
      startedAt: Date.now(),
      argv,
    });
    runOutlivingCommand(orch, agent, () => [
      proc(10, 1, ["codex-acp"]),
      ...(alive ? [proc(20, 10, ["/bin/bash", "-lc", CMD]), proc(21, 20, ["sleep", "6"])] : []),
    ]);
    const detached = await untilState(orch, (s) => s.phase === "idle");
    expect(displayStatus(detached.toolCalls.c1)).toBe("background");
    expect(detached.toolCalls.c1.pids).toEqual([20]);
    const [task] = await orch.listTasks();
    expect(task).toMatchObject({ kind: "command", running: true, pids: [20] });

    expect(await orch.stopTask(task.id)).toBeUndefined();
    expect(stopped).toEqual([
      [
        { pid: 20, start: "200" },
        { pid: 21, start: "210" },
      ],
    ]);
    const s = await untilState(orch, (st) => displayStatus(st.toolCalls.c1) === "ended");
    expect(s.items.some((i) => i.kind === "notice" && i.text === `\`${CMD}\` was stopped by you`)).toBe(true);
    expect((await orch.listTasks())[0]).toMatchObject({ running: false, how: expect.stringMatching(/stopped by you/) });
  });

  it("a command that ends on its own while watched is found gone by the watch", async () => {
    let alive = true;
    const probe = { running: (m: readonly ProcessMember[]) => (alive ? [...m] : []), stop: async () => undefined };
    const { orch, agent } = await startWithFake({ processProbe: probe }, CODEX);
    running.push(orch);
    runOutlivingCommand(orch, agent, () => [{ pid: 20, ppid: 10, start: "1", argv: ["bash", "-lc", CMD] }]);
    await untilState(orch, (s) => s.toolCalls.c1?.pids !== undefined);
    alive = false;
    const s = await untilState(orch, (st) => displayStatus(st.toolCalls.c1) === "ended");
    expect(
      s.items.some(
        (i) => i.kind === "notice" && /left running after its turn, has ended: it is no longer among Codex's processes/.test(i.text),
      ),
    ).toBe(true);
  });

  it("codex 2.x reports its outliving calls' ends: a command not found at the turn's end is left to its word, not called ended", async () => {
    const probe = { running: () => [], stop: async () => undefined };
    const { orch, agent } = await startWithFake({ processProbe: probe }, CODEX2);
    running.push(orch);
    runOutlivingCommand(orch, agent, () => []);
    const s = await untilState(orch, (st) => st.phase === "idle");
    expect(displayStatus(s.toolCalls.c1)).toBe("background");
    agent.update({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed" });
    const done = await untilState(orch, (st) => displayStatus(st.toolCalls.c1) === "completed");
    expect(done.toolCalls.c1.localStatus).toBeUndefined();
  });
});
