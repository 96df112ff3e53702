import { quietPeriod, type TurnTiming } from "../../session/quiet-period.js";
import { describeOpenWork, openWork } from "../../session/open-work.js";
import { agentLabel } from "../../session/profiles/select-profile.js";
import { hintFor } from "../shell/key-bindings.js";
import type { SessionState } from "../../session/state.js";
import { turnById } from "../../session/turn-lookup.js";

/** What the status line says, and how. */
export interface StatusView {
  /** Spinner and elapsed time are shown. */
  busy: boolean;
  tone: "normal" | "warning" | "error";
  text: string;
  /** Extra lines under the main one (a failure's stderr tail). */
  detail: string[];
  /** What the user can do now, e.g. "esc to cancel". */
  hints: string[];
  /** Event-clock time the busy period started, for the elapsed counter. */
  since?: number;
}

/** What the status line needs besides the session state. */
export interface StatusContext {
  agentName: string;
  /** A client terminal is running, so Ctrl-T can focus it. */
  runningTerminal?: boolean;
  /** A terminal pane has the keys: Esc leaves it rather than cancelling. */
  terminalFocused?: boolean;
  /** The turn machine's timing, to name a quiet period the turn waits out. */
  timing?: TurnTiming;
}

/** What a drain with nothing open waits for, in words: only agents that give no turn signal get here. */
function describeQuiet(state: SessionState, timing: TurnTiming | undefined): string {
  const quiet = quietPeriod(state, timing);
  if (!quiet) return "finishing…";
  const agent = agentLabel(state);
  const secs = `${Math.max(1, Math.round((quiet.until - state.lastAgentActivityAt) / 1000))} s`;
  switch (quiet.reason) {
    case "replay":
      return "loading the rest of the history…";
    case "agent_turn":
      return `${agent} is working on its own (it gives no turn signal: done after ${secs} of quiet)`;
    case "background":
      return `background work ended: waiting ${secs} for ${agent} to follow up (it gives no turn signal)`;
    case "streaming":
      return `finishing… (${agent} gives no turn signal: done after ${secs} of quiet)`;
  }
}

const BUSY = new Set(["prompting", "draining", "cancelling", "replaying"]);

/** Lines of a stderr tail worth showing under a failure. */
const STDERR_LINES = 6;

function tailLines(text: string | undefined): string[] {
  if (!text) return [];
  return text.replace(/\s+$/, "").split(/\r?\n/).slice(-STDERR_LINES);
}

/** When the current busy period started: the oldest prompt in flight, else the current turn. */
export function busySince(state: SessionState): number | undefined {
  const id = state.pendingPrompts[0] ?? state.currentTurnId;
  return turnById(state, id)?.startedAt;
}

/** The status line for a session phase: what the orchestrator waits on, and which keys help. */
export function describeStatus(state: SessionState, ctx: StatusContext): StatusView | null {
  const hints: string[] = [];
  const since = busySince(state);
  const escHint = ctx.terminalFocused ? [] : [hintFor("cancel")];
  // Only agents that take steering get the hint: elsewhere Ctrl-S queues, as Enter does.
  if (state.agent?.steering && (state.phase === "prompting" || state.phase === "draining")) hints.push(hintFor("steer"));
  if (ctx.runningTerminal && !ctx.terminalFocused) hints.push(hintFor("focus-terminal"));
  switch (state.phase) {
    case "starting":
      return { busy: true, tone: "normal", text: `starting ${ctx.agentName}…`, detail: [], hints: [] };
    case "idle":
      return null;
    case "prompting": {
      const n = state.permissions.length;
      hints.unshift(...escHint);
      return {
        busy: true,
        tone: n ? "warning" : "normal",
        text: n ? `waiting for permission (${n})` : "working",
        detail: [],
        hints,
        since,
      };
    }
    case "draining": {
      const work = describeOpenWork(openWork(state), agentLabel(state));
      hints.unshift(...escHint);
      if (state.queue.length) hints.push(hintFor("detach"));
      return { busy: true, tone: "normal", text: work || describeQuiet(state, ctx.timing), detail: [], hints, since };
    }
    case "cancelling":
      return { busy: true, tone: "warning", text: "cancelling…", detail: [], hints, since };
    case "replaying":
      return { busy: true, tone: "normal", text: "loading history…", detail: [], hints: [] };
    case "failed":
      if (state.failure?.kind === "agent-start") {
        return {
          busy: false,
          tone: "error",
          text: state.failure.message || `${ctx.agentName} did not start`,
          detail: tailLines(state.failure.stderrTail),
          hints: [
            "/restart to try again",
            `conch doctor --agent ${/\s/.test(ctx.agentName) ? JSON.stringify(ctx.agentName) : ctx.agentName} checks the setup`,
            "/quit",
          ],
        };
      }
      // Said once: when the transcript holds the failure with its stderr tail, the status line only points to it.
      if (state.failure?.inTranscript)
        return {
          busy: false,
          tone: "error",
          text: `${agentLabel(state)} stopped (see above)`,
          detail: [],
          hints: ["/restart to start the agent again"],
        };
      return {
        busy: false,
        tone: "error",
        text: state.failure?.message ?? "the session failed",
        detail: tailLines(state.failure?.stderrTail),
        hints: ["/restart to start the agent again"],
      };
    default:
      return null;
  }
}

/** Whether the session is in a phase where a sent message is queued rather than sent. */
export function isBusy(state: SessionState): boolean {
  return BUSY.has(state.phase);
}

/** "4s", "1m 05s", "2h 03m". */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}
