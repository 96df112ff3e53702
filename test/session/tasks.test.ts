import { describe, expect, it } from "vitest";
import type { AgentProcess, ProcessSnapshot } from "../../src/session/agent-processes.js";
import { processesRunning } from "../../src/session/agent-processes.js";
import type { SessionEvent } from "../../src/session/events.js";
import { openWork } from "../../src/session/open-work.js";
import { foldEvents } from "../../src/session/reduce.js";
import { displayStatus, type SessionState } from "../../src/session/state.js";
import { describeTasks, tasksOf } from "../../src/session/tasks.js";
import { closeInterruptedRuns } from "../../src/session/interrupted-runs.js";
import { traceToEvents } from "../support/trace-events.js";

type Ev = SessionEvent extends infer E ? (E extends { at: number } ? Omit<E, "at"> & { at?: number } : never) : never;
let clock = 1_000_000;
const ev = (e: Ev): SessionEvent => ({ at: clock++, ...e }) as SessionEvent;
const fold = (...events: Ev[]): SessionState => foldEvents(events.map(ev));

const CMD = "sleep 1; echo tick; sleep 6; echo done";
const start = (agent: string, version: string): Ev[] => [
  { type: "agent_ready", info: { name: agent, version } },
  { type: "session_started", info: { sessionId: "s1", cwd: "/p", agentName: agent, origin: "new" } },
];
const codexExec: Ev[] = [
  ...start("codex-acp", "0.16.0"),
  { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "Run the slow command" }] },
  {
    type: "update",
    notification: {
      sessionId: "s1",
      update: {
        sessionUpdate: "tool_call",
        toolCallId: "call_1",
        title: CMD,
        kind: "execute",
        status: "in_progress",
        rawInput: { command: ["bash", "-lc", CMD] },
        _meta: { terminal_info: { terminal_id: "call_1", cwd: "/p" } },
      },
    },
  },
];
const answered: Ev = { type: "prompt_response", turnId: "t1", response: { stopReason: "end_turn" } };

function proc(pid: number, ppid: number, argv: string[], startedAt = clock): AgentProcess {
  return { pid, ppid, start: String(pid * 7), startedAt, argv };
}
const snapshot = (...processes: AgentProcess[]): ProcessSnapshot => ({
  rootPid: 100,
  processes: [proc(100, 1, ["codex-acp"], 0), ...processes],
  at: clock,
});

describe("tasks: a derived view of the session and the agent's process table", () => {
  it("codex 0.16 race: the exec's end never came, the table says it is gone before the turn answers: ended, not running", () => {
    const s = fold(...codexExec, { type: "command_checked", toolCallId: "call_1", running: false }, answered);
    const tool = s.toolCalls.call_1;
    expect(displayStatus(tool)).toBe("ended");
    expect(s.terminals.call_1.exited).toBe(true);
    expect(openWork(s)).toEqual([]);
    const [task] = tasksOf(s);
    expect(task).toMatchObject({ kind: "command", label: CMD, running: false, how: expect.stringContaining("did not report") });
    expect(describeTasks(tasksOf(s))).toBe("");
    // Its card has not been drawn yet: no extra line about it.
    expect(s.items.filter((i) => i.kind === "notice")).toEqual([]);
  });

  it("an exec still running when its turn answers is shown running with its processes; gone later, it ends with a line in the transcript", () => {
    const shell = proc(201, 200, ["/bin/bash", "-lc", CMD]);
    const running = fold(...codexExec, { type: "command_checked", toolCallId: "call_1", running: true, pids: [200] }, answered);
    expect(displayStatus(running.toolCalls.call_1)).toBe("background");
    const sandbox = proc(200, 100, ["bwrap", "--new-session", "--", "/bin/bash", "-lc", CMD]);
    const [task] = tasksOf(running, snapshot(sandbox, shell, proc(202, 201, ["sleep", "6"])));
    expect(task).toMatchObject({ kind: "command", running: true, pids: [200], atQuit: "stopped with the agent when you quit" });
    expect(task.turn).toBe("Run the slow command");
    expect(task.stop).toEqual({ kind: "processes", members: [200, 201, 202].map((pid) => ({ pid, start: String(pid * 7) })) });
    expect(describeTasks(tasksOf(running))).toBe("1 task running");
    // The status bar's cheaper question (open calls only) gives the same running tasks.
    expect(tasksOf(running, undefined, { runningOnly: true }).map((t) => t.id)).toEqual(
      tasksOf(running)
        .filter((t) => t.running)
        .map((t) => t.id),
    );

    const ended = fold(...codexExec, { type: "command_checked", toolCallId: "call_1", running: true, pids: [200] }, answered, {
      type: "command_checked",
      toolCallId: "call_1",
      running: false,
    });
    expect(displayStatus(ended.toolCalls.call_1)).toBe("ended");
    const notice = ended.items.filter((i) => i.kind === "notice").map((i) => (i as { text: string }).text);
    expect(notice).toEqual([
      `\`${CMD}\`, left running after its turn, has ended: it is no longer among Codex's processes (Codex did not report how it ended)`,
    ]);
    expect(tasksOf(ended)[0]).toMatchObject({ running: false });
  });

  // claude-agent-acp announces a display pane with the call (`terminal_info`) before it asks.
  it.each([
    ["a call", {}],
    ["nor its display pane (terminal_info)", { _meta: { terminal_info: { terminal_id: "c9" } } }],
  ])("a call waiting for the person's permission has not started: it is no task yet, %s; the status bar says nothing runs", (_, meta) => {
    const call = {
      sessionUpdate: "tool_call",
      toolCallId: "c9",
      title: "echo hello",
      kind: "execute",
      status: "pending",
      ...meta,
    } as const;
    const s = fold(
      ...start("claude-agent-acp", "0.23.1"),
      { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "go" }] },
      { type: "update", notification: { sessionId: "s1", update: call } },
      {
        type: "permission_asked",
        key: "k1",
        request: {
          sessionId: "s1",
          toolCall: { toolCallId: "c9", title: "echo hello", kind: "execute", status: "pending" },
          options: [{ optionId: "y", name: "Allow", kind: "allow_once" }],
        },
      },
    );
    expect(s.toolCalls.c9).toBeDefined();
    expect(tasksOf(s)).toEqual([]);
    expect(describeTasks(tasksOf(s, undefined, { runningOnly: true }))).toBe("");
    const allowed = foldEvents(
      [ev({ type: "permission_answered", key: "k1", outcome: { outcome: "selected", optionId: "y" }, source: "user" })],
      s,
    );
    expect(tasksOf(allowed)).toMatchObject([{ label: "echo hello", running: true }]);
  });

  it("the agent reporting later how a call its turn left running ended: a line says so, as its card already said running", () => {
    const done = {
      sessionUpdate: "tool_call_update",
      toolCallId: "call_1",
      status: "completed",
      _meta: { terminal_exit: { terminal_id: "call_1", exit_code: 0, signal: null } },
    } as const;
    const s = fold(...codexExec, answered, { type: "update", notification: { sessionId: "s1", update: done } });
    expect(displayStatus(s.toolCalls.call_1)).toBe("completed");
    expect(s.items.filter((i) => i.kind === "notice").map((i) => (i as { text: string }).text)).toEqual([
      `\`${CMD}\`, left running after its turn, has ended: exit 0`,
    ]);
  });

  it("a stop asked by the person says so once the task ends", () => {
    const s = fold(
      ...codexExec,
      { type: "command_checked", toolCallId: "call_1", running: true, pids: [200] },
      answered,
      { type: "task_stop_requested", taskId: "term:call_1" },
      { type: "command_checked", toolCallId: "call_1", running: false },
    );
    expect(tasksOf(s)[0].how).toMatch(/\(stopped by you\)$/);
    expect(s.items.some((i) => i.kind === "notice" && i.text === `\`${CMD}\` was stopped by you`)).toBe(true);
  });

  it("a task stopped in its turn: the transcript says so once, though the agent calls the call completed or its pane exited", () => {
    const notices = (st: SessionState) => st.items.flatMap((i) => (i.kind === "notice" ? [i.text] : []));
    const update = (u: Record<string, unknown>): Ev => ({ type: "update", notification: { sessionId: "s1", update: u } }) as Ev;
    // gemini: no terminal; it reports `completed` for the command conch's stop killed.
    const gemini = fold(
      ...start("gemini-cli", "0.61.0"),
      { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "Run it" }] },
      update({ sessionUpdate: "tool_call", toolCallId: "g1", title: CMD, kind: "execute", status: "in_progress" }),
      { type: "task_stop_requested", taskId: "call:g1" },
      update({ sessionUpdate: "tool_call_update", toolCallId: "g1", status: "completed" }),
    );
    expect(notices(gemini)).toEqual([`\`${CMD}\` was stopped by you`]);
    // Its pane's exit and the call's end both come: one line.
    const paned = fold(
      ...codexExec,
      { type: "task_stop_requested", taskId: "term:call_1" },
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: "call_1",
        _meta: { terminal_exit: { terminal_id: "call_1", exit_code: null, signal: "SIGTERM" } },
      }),
      update({ sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "failed" }),
    );
    expect(notices(paned)).toEqual([`\`${CMD}\` was stopped by you (signal SIGTERM)`]);
    // Your own command, and the same ends with no stop asked: no line.
    const own = fold(
      ...start("demo", "1"),
      { type: "terminal_started", terminalId: "u1", command: "/bin/sh", args: ["-c", "make watch"], cwd: "/p", by: "user" },
      { type: "task_stop_requested", taskId: "term:u1" },
      { type: "terminal_exited", terminalId: "u1", exitCode: null, signal: "SIGTERM" },
    );
    expect(notices(own)).toEqual(["`make watch` was stopped by you (signal SIGTERM)"]);
    const unasked = fold(
      ...codexExec,
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: "call_1",
        _meta: { terminal_exit: { terminal_id: "call_1", exit_code: 0, signal: null } },
      }),
      update({ sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "completed" }),
    );
    expect(notices(unasked)).toEqual([]);
  });

  it("a call codex calls cancelled whose process goes on is shown running, with the process to stop", () => {
    const s = fold(
      ...codexExec,
      { type: "cancel_requested" },
      { type: "prompt_response", turnId: "t1", response: { stopReason: "cancelled" } },
    );
    expect(displayStatus(s.toolCalls.call_1)).toBe("cancelled");
    expect(tasksOf(s)).toEqual([]);
    const [task] = tasksOf(s, snapshot(proc(300, 100, ["/bin/bash", "-lc", CMD])));
    expect(task).toMatchObject({ running: true, pids: [300] });
  });

  it("a killed agent: every task it owned is shown ended, none running", () => {
    const s = fold(
      ...codexExec,
      {
        type: "terminal_started",
        terminalId: "term-1",
        command: "npm",
        args: ["test"],
        cwd: "/p",
      },
      { type: "agent_exited", code: null, signal: "SIGKILL", stderrTail: "", expected: false },
      { type: "terminal_exited", terminalId: "term-1", exitCode: null, signal: "SIGTERM" },
    );
    const tasks = tasksOf(s);
    expect(tasks.map((t) => [t.label, t.running, t.how])).toEqual([
      ["npm test", false, "ended with the agent (signal SIGTERM)"],
      [CMD, false, "ended with the agent"],
    ]);
  });

  it("the user's own command: a transcript item of its own, a task, never open work for the agent's turn", () => {
    const s = fold(...start("demo", "1"), {
      type: "terminal_started",
      terminalId: "u1",
      command: "/bin/bash",
      args: ["-c", "make test"],
      cwd: "/p",
      by: "user",
    });
    expect(s.items.at(-1)).toMatchObject({ kind: "shell", terminalId: "u1", command: "make test" });
    expect(openWork(s)).toEqual([]);
    expect(tasksOf(s)).toMatchObject([{ kind: "shell", label: "make test", running: true, stop: { kind: "terminal", terminalId: "u1" } }]);
    expect(describeTasks(tasksOf(s))).toBe("1 command of yours running");
    const done = foldEvents([ev({ type: "terminal_exited", terminalId: "u1", exitCode: 2, signal: null })], s);
    expect(tasksOf(done)[0]).toMatchObject({ running: false, how: "exit 2" });
  });

  it("a log read back: conch's own terminals of a run that ended are not listed running in the next", () => {
    const first = [
      ...start("demo", "1"),
      { type: "terminal_started", terminalId: "u1", command: "sh", args: ["-c", "make watch"], cwd: "/p", by: "user" },
    ] as Ev[];
    const events = closeInterruptedRuns([...first, ...start("demo", "1")].map(ev));
    expect(tasksOf(foldEvents(events))).toMatchObject([{ kind: "shell", running: false }]);
  });

  it("a process of the agent's that outlived its turn and that no call accounts for is listed; its helpers from before the first prompt are not", () => {
    const helper = proc(150, 100, ["mcp-server"], 0);
    const s = fold(...codexExec.slice(0, 3), answered);
    const late = proc(400, 100, ["/bin/sh", "-c", "python -m http.server"], s.turns[0].startedAt + 1);
    const tasks = tasksOf(s, snapshot(helper, late, proc(401, 400, ["python", "-m", "http.server"])));
    expect(tasks).toMatchObject([{ kind: "process", label: "python -m http.server", running: true, turn: "Run the slow command" }]);
  });

  it("claude-next s4 (terminal_output): the background command runs after its turn, then ends while no turn runs", () => {
    const events = traceToEvents("claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl");
    const firstAnswer = events.findIndex((e) => e.type === "prompt_response");
    const mid = foldEvents(events.slice(0, firstAnswer + 1));
    const running = tasksOf(mid).filter((t) => t.running);
    expect(running.map((t) => t.label)).toEqual([expect.stringContaining("sleep")]);
    const end = foldEvents(events);
    expect(tasksOf(end).filter((t) => t.running)).toEqual([]);
    expect(tasksOf(end).length).toBeGreaterThan(0);
  });

  it("claude 0.23 s4: the held answer comes once its background task and report are done, so the task has ended", () => {
    for (const trace of ["s4-background-bash.jsonl", "s4-background-bash.terminal_output.jsonl"]) {
      const events = traceToEvents(`claude-agent-acp-0.23.1/${trace}`);
      const end = foldEvents(events);
      const tasks = tasksOf(end);
      expect(tasks.filter((t) => t.running)).toEqual([]);
      expect(tasks.find((t) => t.kind === "background" || t.label.includes("sleep"))).toBeDefined();
    }
  });

  it("matching a command: the topmost process of each subtree holding it; too short a command matches nothing", () => {
    const ps = [proc(1, 0, ["bwrap", "--", "bash", "-c", "ls -la"]), proc(2, 1, ["bash", "-c", "ls -la"]), proc(3, 0, ["vim", "notes"])];
    expect(processesRunning(ps, "ls -la").map((p) => p.pid)).toEqual([1]);
    expect(processesRunning(ps, "ls")).toEqual([]);
  });
});
