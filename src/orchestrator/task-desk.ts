import type { SessionEvent } from "../session/events.js";
import { tasksOf, type CommandStart, type Task } from "../session/tasks.js";
import { runningMembers, stopMembers } from "../terminals/process-table.js";
import { CommandWatch } from "./command-watch.js";
import type { AgentSlot, ProcessProbe, SessionEvents, TerminalService } from "./ports.js";

/** What the desk needs: the queue, the agent (its process table), the terminals, and how to look at and stop processes (the process table unless given). */
export interface TaskDeskPorts {
  events: SessionEvents;
  agent: AgentSlot;
  terminals: () => TerminalService | undefined;
  probe?: ProcessProbe;
}

/**
 * The work in the user's hands: the tasks view's list (derived from the state and a fresh read of
 * the agent's process table), a stop (the orchestrator owns every kill: a terminal by
 * `terminal/kill`'s own path, processes of the agent's tree by signal), and the user's own command.
 */
export class TaskDesk {
  /** What the agent does not say about the commands it runs on after their turn. */
  readonly watch: CommandWatch;
  private readonly probe: ProcessProbe;

  constructor(private readonly ports: TaskDeskPorts) {
    this.probe = ports.probe ?? { running: runningMembers, stop: (members) => stopMembers(members) };
    this.watch = new CommandWatch({ events: ports.events, agent: ports.agent, probe: this.probe });
  }

  /** Sees every event (the watch stops when the agent is gone). */
  observe(ev: SessionEvent): void {
    this.watch.observe(ev);
  }

  /**
   * Every task of the session now: read when a view asks, never on a timer of the desk's own. A
   * promise, as the same intent from another terminal (`conch attach --write`) is answered over a socket.
   */
  async listTasks(): Promise<Task[]> {
    return this.tasksNow();
  }

  private tasksNow(): Task[] {
    return tasksOf(this.ports.events.state, this.watch.snapshot());
  }

  /**
   * Stops a running task. Resolves with a sentence for the person when it cannot (it ended, or
   * conch has no way to stop it), else once the stop has been sent (a terminal) or done (processes).
   */
  async stopTask(taskId: string): Promise<string | undefined> {
    const { events } = this.ports;
    const probe = this.probe;
    const task = this.tasksNow().find((t) => t.id === taskId);
    if (!task) return "that task is no longer listed";
    if (!task.running) return `\`${task.label}\` has already ended`;
    if (!task.stop) return `conch cannot stop \`${task.label}\`: it found no process of it to signal`;
    events.dispatch({ type: "task_stop_requested", taskId });
    if (task.stop.kind === "terminal") {
      const sessionId = events.state.info?.sessionId ?? "";
      await this.ports.terminals()?.kill({ sessionId, terminalId: task.stop.terminalId });
      return undefined;
    }
    await probe.stop(task.stop.members);
    // A call the agent left running ends here; anything else the agent reports on itself.
    const tool = task.toolCallId ? events.state.toolCalls[task.toolCallId] : undefined;
    if (tool?.detached) events.dispatch({ type: "command_checked", toolCallId: tool.toolCallId, running: false });
    return undefined;
  }

  /** Runs the user's own command line (`!cmd`): its terminal, or a sentence for the person when it could not start. */
  async runCommand(line: string): Promise<CommandStart> {
    const terminals = this.ports.terminals();
    if (!terminals?.runUserCommand) return { error: "this session has no terminals to run a command in" };
    try {
      return { terminalId: await terminals.runUserCommand(line) };
    } catch (err) {
      return { error: `could not run \`${line}\`: ${(err as Error).message}` };
    }
  }
}
