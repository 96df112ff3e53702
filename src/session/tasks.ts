import { commandLineOf, processesRunning, subtreeOf, type AgentProcess, type ProcessSnapshot } from "./agent-processes.js";
import { displayOf } from "./profiles/display-of.js";
import { profileOf } from "./profiles/select-profile.js";
import { isFinalStatus, type SessionState, type TerminalView, type ToolCallView } from "./state.js";
import { turnLabel } from "./turn-edits.js";

/**
 * What a task is: the agent's client terminal (`terminal/create`), an agent's command (a call with
 * its own terminal, or one running on in the agent's session), a background task the agent
 * announced, the user's own command (`!cmd`), or a process of the agent's tree no call accounts for.
 */
export type TaskKind = "terminal" | "command" | "background" | "shell" | "process";

/** How conch can stop a task: its client terminal (`terminal/kill`), or processes of the agent's tree by signal. */
export type TaskStop = { kind: "terminal"; terminalId: string } | { kind: "processes"; members: { pid: number; start: string }[] };

/** One piece of work in the session, alive or recently ended: a derived view, never state of its own. */
export interface Task {
  /** Stable across derivations: `term:<id>`, `call:<id>`, `task:<id>`, `proc:<pid>:<start>`. */
  id: string;
  kind: TaskKind;
  /** The command, the call's title, or the task's name. */
  label: string;
  turnId?: string;
  /** The turn that started it, as a person knows it (its prompt). */
  turn?: string;
  toolCallId?: string;
  terminalId?: string;
  startedAt?: number;
  endedAt?: number;
  running: boolean;
  /** How it ended (exit code, signal, "ended with the agent"); unset while it runs. */
  how?: string;
  /** What conch does with it when you quit; unset once it ended. */
  atQuit?: string;
  /** How conch can stop it; unset when it cannot (or it ended). */
  stop?: TaskStop;
  /** The processes that run it, when conch read the table. */
  pids?: number[];
}

function describeExit(term: TerminalView): string {
  if (term.signal) return `signal ${term.signal}`;
  if (term.exitCode !== null && term.exitCode !== undefined) return `exit ${term.exitCode}`;
  return "ended, exit not reported";
}

function toolHow(tool: ToolCallView): string | undefined {
  switch (tool.localStatus) {
    case "interrupted":
    case "ended_with_agent":
      return "ended with the agent";
    case "ended":
      return "no longer running; the agent did not report how it ended";
    case "cancelled":
      return "cancelled";
    case "stalled":
      return "stalled: no word from the agent";
    case "rejected":
      return "rejected";
    case "unknown":
      return "unknown after resume";
    default:
      return tool.status === "failed" ? "failed" : tool.status === "completed" ? "completed" : undefined;
  }
}

/** Ended after its turn did, or ended by conch or the person: work that was in the user's hands, not a plain card. */
function wasInBackground(state: SessionState, turnId: string | undefined, endedAt: number | undefined, tool?: ToolCallView): boolean {
  const local = tool?.localStatus;
  if (tool && (local === "interrupted" || local === "ended" || local === "ended_with_agent" || tool.pids)) return true;
  const turn = turnId ? state.turns.find((t) => t.id === turnId) : undefined;
  return turn?.endedAt !== undefined && endedAt !== undefined && endedAt > turn.endedAt;
}

const turnOf = (state: SessionState, turnId: string | undefined) =>
  turnId && state.turns.some((t) => t.id === turnId) ? { turnId, turn: turnLabel(state, turnId) } : {};

/** The turn a process started in, by its start time. */
function turnAt(state: SessionState, at: number | undefined): string | undefined {
  if (at === undefined) return undefined;
  return [...state.turns].reverse().find((t) => t.startedAt <= at && (t.endedAt === undefined || at <= t.endedAt))?.id;
}

function commandOf(state: SessionState, tool: ToolCallView | undefined, term?: TerminalView): string | undefined {
  if (tool) return displayOf(state, tool).command ?? (tool.kind === "execute" ? tool.title : undefined);
  return term?.command;
}

/**
 * Every piece of work of the session that is still alive, and what ended after its turn or by
 * conch's hand: terminals, calls running on in the agent's session, announced background tasks,
 * the user's commands, and (with a snapshot of the agent's process table) the agent's processes
 * no call accounts for. Running first, then the newest ended. Pure: a view of the state and the
 * snapshot, never a timer's guess.
 */
export function tasksOf(state: SessionState, snapshot?: ProcessSnapshot, opts: { runningOnly?: boolean } = {}): Task[] {
  const out: Task[] = [];
  const procs = snapshot?.processes ?? [];
  const claimed = new Set<number>();
  const agentGone = state.agentExitedAt !== undefined;
  const stopped = (id: string) => state.stopRequests?.[id] !== undefined;
  /** Attaches the processes that run `command` to a task; they stop it, and they say it still runs. */
  const withProcesses = (task: Task, command: string | undefined): Task => {
    const tops = processesRunning(procs, command, snapshot?.rootPid).filter((p) => !claimed.has(p.pid));
    if (tops.length === 0) return task;
    const members = tops.flatMap((p) => subtreeOf(procs, p.pid));
    for (const m of members) claimed.add(m.pid);
    // Processes that still run it say more than a status the agent gave (codex calls a cancelled exec
    // cancelled while its `sleep` goes on).
    return {
      ...task,
      running: true,
      how: undefined,
      endedAt: undefined,
      pids: tops.map((p) => p.pid),
      stop: task.stop ?? { kind: "processes", members: members.map((m) => ({ pid: m.pid, start: m.start })) },
      atQuit: task.atQuit ?? "stopped with the agent when you quit",
    };
  };
  const agentLabel = profileOf(state).label;
  const shownTools = new Set<string>();
  // A call waiting for a person's answer has not started: it is the prompt's, not a task yet (its
  // display pane, which claude-agent-acp announces with the call, included).
  const asked = new Set(state.permissions.map((p) => p.toolCallId));
  for (const term of Object.values(state.terminals)) {
    const toolId = term.toolCallId ?? state.toolByTerminal.get(term.terminalId);
    const tool = toolId ? state.toolCalls[toolId] : undefined;
    if (tool && term.source === "display" && asked.has(tool.toolCallId)) continue;
    // Replayed history: a pane with no exit whose call is over is not running now.
    if (term.history && (!tool || isFinalStatus(tool))) continue;
    const id = `term:${term.terminalId}`;
    // An agent's pane with no exit says nothing once conch closed its call itself (cancelled,
    // stalled, interrupted): only its processes, if found below, say it still runs.
    const running = !term.exited && !(term.source === "display" && tool?.localStatus);
    const kind: TaskKind = term.by === "user" ? "shell" : term.source === "client" ? "terminal" : "command";
    const turnId = kind === "shell" ? undefined : (tool?.turnId ?? turnAt(state, term.startedAt));
    if (!running && kind !== "shell" && !stopped(id) && !wasInBackground(state, turnId, term.endedAt, tool)) continue;
    if (tool) shownTools.add(tool.toolCallId);
    const withAgent = state.agentExitedAt !== undefined && (term.endedAt ?? 0) >= state.agentExitedAt && term.by !== "user";
    const exit = describeExit(term);
    const how = running
      ? undefined
      : withAgent
        ? `ended with the agent${term.signal || typeof term.exitCode === "number" ? ` (${exit})` : ""}`
        : term.source === "display" && tool?.localStatus
          ? toolHow(tool)
          : exit;
    const task: Task = {
      id,
      kind,
      label:
        (term.source === "display" ? commandOf(state, tool) || tool?.title : undefined) ?? term.command ?? tool?.title ?? term.terminalId,
      ...turnOf(state, turnId),
      toolCallId: tool?.toolCallId,
      terminalId: term.terminalId,
      startedAt: term.startedAt,
      endedAt: running ? undefined : (term.endedAt ?? tool?.endedAt),
      running,
      how: how && stopped(id) ? `${how} (stopped by you)` : how,
      atQuit: running ? (term.source === "client" ? "conch stops it when you quit" : "stopped with the agent when you quit") : undefined,
      stop: running && term.source === "client" ? { kind: "terminal", terminalId: term.terminalId } : undefined,
    };
    out.push(term.source === "client" ? task : withProcesses(task, commandOf(state, tool, term)));
  }
  const taskCalls = new Set(Object.values(state.background).map((t) => t.toolCallId));
  // What still runs is among the open calls; the status bar asks only that, on every frame of a long session.
  const calls = opts.runningOnly ? [...state.openToolIds].map((id) => state.toolCalls[id]) : Object.values(state.toolCalls);
  for (const tool of calls) {
    if (shownTools.has(tool.toolCallId) || tool.history || tool.pollOf || taskCalls.has(tool.toolCallId) || asked.has(tool.toolCallId))
      continue;
    const running = !isFinalStatus(tool);
    if (tool.kind !== "execute" && !tool.detached && !tool.pids) continue;
    const id = `call:${tool.toolCallId}`;
    if (!running && !stopped(id) && !wasInBackground(state, tool.turnId, tool.endedAt, tool)) continue;
    const how = running ? undefined : toolHow(tool);
    const task: Task = {
      id,
      kind: "command",
      label: tool.title || tool.toolCallId,
      ...turnOf(state, tool.turnId),
      toolCallId: tool.toolCallId,
      startedAt: tool.startedAt,
      endedAt: running ? undefined : tool.endedAt,
      running,
      how: how && stopped(id) ? `${how} (stopped by you)` : how,
      atQuit: running ? "stopped with the agent when you quit" : undefined,
      pids: tool.pids,
    };
    out.push(withProcesses(task, commandOf(state, tool)));
  }
  for (const bg of Object.values(state.background)) {
    const id = `task:${bg.taskId}`;
    const tool = bg.toolCallId ? state.toolCalls[bg.toolCallId] : undefined;
    const shown = tool?.terminalId !== undefined && out.some((t) => t.terminalId === tool.terminalId);
    if (shown) continue;
    const running = bg.endedAt === undefined && bg.abandonedAt === undefined;
    const how = running
      ? undefined
      : bg.endedAt !== undefined
        ? bg.reportedAt !== undefined
          ? `ended; ${agentLabel} reported on it`
          : "ended"
        : agentGone
          ? "ended with the agent"
          : "no longer followed (conch stopped waiting for it)";
    out.push(
      withProcesses(
        {
          id,
          kind: "background",
          label: bg.label,
          ...turnOf(state, tool?.turnId),
          toolCallId: bg.toolCallId,
          startedAt: bg.startedAt,
          endedAt: bg.endedAt ?? bg.abandonedAt,
          running,
          how: how && stopped(id) ? `${how} (stopped by you)` : how,
          atQuit: running ? "stopped with the agent when you quit" : undefined,
        },
        tool ? commandOf(state, tool) : bg.label,
      ),
    );
  }
  out.push(...unclaimedProcesses(state, snapshot, claimed));
  if (opts.runningOnly) return out.filter((t) => t.running);
  return out.sort((a, b) => Number(b.running) - Number(a.running) || (b.endedAt ?? b.startedAt ?? 0) - (a.endedAt ?? a.startedAt ?? 0));
}

/**
 * The agent's processes that no task accounts for and that it did not start for itself before the
 * first prompt (its helpers, its MCP servers): the topmost of each such subtree.
 */
function unclaimedProcesses(state: SessionState, snapshot: ProcessSnapshot | undefined, claimed: Set<number>): Task[] {
  if (!snapshot) return [];
  const firstPrompt = state.turns.find((t) => t.origin === "user")?.startedAt;
  if (firstPrompt === undefined) return [];
  // Started in a turn that has ended: a turn's own commands are its cards while it runs.
  const outlived = (p: AgentProcess) => {
    const turn = state.turns.find((t) => t.id === turnAt(state, p.startedAt));
    return turn === undefined || turn.endedAt !== undefined;
  };
  const fresh = snapshot.processes.filter(
    (p) => p.pid !== snapshot.rootPid && !claimed.has(p.pid) && p.startedAt !== undefined && p.startedAt >= firstPrompt,
  );
  const pids = new Set(fresh.map((p) => p.pid));
  return fresh
    .filter((p) => !pids.has(p.ppid) && outlived(p))
    .map((p): Task => {
      const members = subtreeOf(snapshot.processes, p.pid);
      return {
        id: `proc:${p.pid}:${p.start}`,
        kind: "process",
        label: commandLineOf(p),
        ...turnOf(state, turnAt(state, p.startedAt)),
        startedAt: p.startedAt,
        running: true,
        atQuit: "stopped with the agent when you quit",
        stop: { kind: "processes", members: members.map((m) => ({ pid: m.pid, start: m.start })) },
        pids: [p.pid],
      };
    });
}

/** What became of the user's own command: the terminal it runs in, or why it did not start. */
export interface CommandStart {
  terminalId?: string;
  error?: string;
}

/** The one-line summary for the status bar: what runs, by kind; empty when nothing does. */
export function describeTasks(tasks: readonly Task[]): string {
  const running = tasks.filter((t) => t.running);
  if (running.length === 0) return "";
  const yours = running.filter((t) => t.kind === "shell").length;
  const agents = running.length - yours;
  const parts = [
    ...(agents ? [`${agents} task${agents === 1 ? "" : "s"} running`] : []),
    ...(yours ? [`${yours} command${yours === 1 ? "" : "s"} of yours running`] : []),
  ];
  return parts.join(", ");
}
