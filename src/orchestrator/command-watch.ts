import { processesRunning, subtreeOf, type ProcessSnapshot } from "../session/agent-processes.js";
import type { SessionEvent } from "../session/events.js";
import { displayOf } from "../session/profiles/display-of.js";
import { profileOf } from "../session/profiles/select-profile.js";
import { isFinalStatus, type SessionState, type ToolCallView } from "../session/state.js";
import type { AgentSlot, ProcessMember, ProcessProbe, SessionEvents } from "./ports.js";

/**
 * How often a command the agent left running is looked for again. Linux gives no event when a
 * process that is not conch's child ends (and Node cannot wait on a pidfd), and codex-acp 0.16 may
 * never say: the watch reads two short /proc files per process, only while such a command runs.
 */
const WATCH_MS = 1000;

interface Watched {
  toolCallId: string;
  members: ProcessMember[];
  /** Not found at the last look: one more look lets the agent's own word (its late update) come first. */
  missedOnce: boolean;
}

/** What the watch needs: the queue, the agent (its process table), and how to look at processes. */
export interface CommandWatchPorts {
  events: SessionEvents;
  agent: AgentSlot;
  probe: ProcessProbe;
}

/** The call's command, when it has one conch can look for. */
function commandOf(state: SessionState, tool: ToolCallView): string | undefined {
  return displayOf(state, tool).command ?? (tool.kind === "execute" ? tool.title : undefined);
}

/**
 * Finds out what the agent does not say about the commands it runs on after their turn (codex-acp
 * 0.16 keeps an exec running in its own session, sends nothing more unless the model polls it, and
 * can lose an exec's end in a race with the turn's end): when a turn answers, each of its calls
 * still open is looked for among the agent's processes. Gone, it ended (`command_checked`); still
 * there, its processes are watched until they are gone. The table is read at those moments only.
 */
export class CommandWatch {
  private watched = new Map<string, Watched>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly ports: CommandWatchPorts) {}

  /** The agent's process tree now, where it can be read. */
  snapshot(): ProcessSnapshot | undefined {
    return this.ports.agent.link?.processes?.();
  }

  /**
   * The turn `turnId` is about to answer (not cancelled): its calls still open are about to run on
   * in the agent's session, so whether they still run is asked of the process table now, before
   * the card that says so is drawn.
   */
  beforeResponse(turnId: string): void {
    const { state } = this.ports.events;
    if (!profileOf(state).turns.callsOutliveTurn) return;
    const open = [...state.openToolIds].map((id) => state.toolCalls[id]).filter((t) => t.turnId === turnId && !t.detached);
    const asked = new Set(state.permissions.map((p) => p.toolCallId));
    const candidates = open.filter((t) => !asked.has(t.toolCallId) && commandOf(state, t) !== undefined);
    if (candidates.length === 0) return;
    const snap = this.snapshot();
    if (!snap) return;
    for (const tool of candidates) this.check(snap, tool);
  }

  private check(snap: ProcessSnapshot, tool: ToolCallView): void {
    const { events } = this.ports;
    const tops = processesRunning(snap.processes, commandOf(events.state, tool), snap.rootPid);
    if (tops.length === 0) {
      // An agent whose outliving calls report (codex-acp 2.x) says how the command ended: a command
      // not found (one that ran elsewhere, or a replay's, which never ran) is its word to give.
      if (!profileOf(events.state).turns.outlivingCallsReport)
        events.dispatch({ type: "command_checked", toolCallId: tool.toolCallId, running: false });
      return;
    }
    const members = tops.flatMap((p) => subtreeOf(snap.processes, p.pid)).map((p) => ({ pid: p.pid, start: p.start }));
    events.dispatch({ type: "command_checked", toolCallId: tool.toolCallId, running: true, pids: tops.map((p) => p.pid) });
    this.watched.set(tool.toolCallId, { toolCallId: tool.toolCallId, members, missedOnce: false });
    this.timer ??= setInterval(() => this.look(), WATCH_MS);
    this.timer.unref?.();
  }

  /** Sees every event: once the agent is gone, or the call is over by the agent's word, there is nothing to watch. */
  observe(ev: SessionEvent): void {
    if (this.watched.size === 0) return;
    if (ev.type === "agent_exited" || ev.type === "session_left" || ev.type === "restarted") this.clear();
  }

  private look(): void {
    const { events, probe } = this.ports;
    for (const w of [...this.watched.values()]) {
      const tool = events.state.toolCalls[w.toolCallId];
      if (!tool || isFinalStatus(tool)) {
        this.watched.delete(w.toolCallId);
        continue;
      }
      if (probe.running(w.members).length > 0) {
        w.missedOnce = false;
        continue;
      }
      if (!w.missedOnce) {
        w.missedOnce = true;
        continue;
      }
      this.watched.delete(w.toolCallId);
      events.dispatch({ type: "command_checked", toolCallId: w.toolCallId, running: false });
    }
    if (this.watched.size === 0) this.stopTimer();
  }

  /** Stops watching everything (the agent is gone, or conch quits). */
  clear(): void {
    this.watched.clear();
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
