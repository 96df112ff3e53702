import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Orchestrator } from "../../src/orchestrator/orchestrator.js";
import { RegistryTerminalService } from "../../src/orchestrator/terminals/terminal-service.js";
import { ROOT, tempDir } from "../support/run-conch.js";
import { untilState } from "../support/until-state.js";

const running: Orchestrator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((o) => o.shutdown()));
});

/** conch's orchestrator with the demo agent as a real process, and client terminals as real PTYs. */
async function startDemo(): Promise<Orchestrator> {
  const cwd = tempDir();
  const orch = new Orchestrator({
    agent: { name: "demo", command: { command: process.execPath, args: [path.join(ROOT, "dist/demo/main.js")] }, via: "command" },
    cwd,
    policy: "approve-all",
    terminals: (emit, root) => new RegistryTerminalService(emit, root),
  });
  running.push(orch);
  await orch.start();
  return orch;
}

describe("tasks when the agent is killed (kill -9 mid-command)", () => {
  it("the client terminal it was running is stopped and shown ended with the agent; none is left running", async () => {
    const orch = await startDemo();
    // `interactive` runs a command in a client terminal that waits for input: it runs until stopped.
    orch.send("interactive");
    await untilState(orch, (s) => Object.values(s.terminals).some((t) => t.source === "client"));
    const [before] = await orch.listTasks();
    expect(before).toMatchObject({ kind: "terminal", running: true, stop: { kind: "terminal" }, atQuit: "conch stops it when you quit" });
    process.kill((orch.link as unknown as { proc: { pid: number } }).proc.pid, "SIGKILL");
    await untilState(orch, (s) => s.phase === "failed" && Object.values(s.terminals).every((t) => t.exited));
    const after = await orch.listTasks();
    expect(after.filter((t) => t.running)).toEqual([]);
    expect(after[0].how).toBe("ended with the agent (signal SIGTERM)");
  });

  it("the person's own command runs on: it is theirs, not the agent's", async () => {
    const orch = await startDemo();
    const started = await orch.runCommand("sleep 30");
    expect(started.error).toBeUndefined();
    process.kill((orch.link as unknown as { proc: { pid: number } }).proc.pid, "SIGKILL");
    await untilState(orch, (s) => s.phase === "failed");
    expect(await orch.listTasks()).toMatchObject([{ kind: "shell", label: "sleep 30", running: true }]);
    expect(await orch.stopTask(`term:${started.terminalId}`)).toBeUndefined();
    const s = await untilState(orch, (st) => st.terminals[started.terminalId!]?.exited === true);
    expect(s.terminals[started.terminalId!].signal).toBe("SIGTERM");
    expect((await orch.listTasks())[0]).toMatchObject({ running: false, how: "signal SIGTERM (stopped by you)" });
  });
});
