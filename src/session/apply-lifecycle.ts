import { exitTerminal } from "./apply-terminal.js";
import type { Draft } from "./draft.js";
import type { SessionEvent } from "./events.js";
import { openWork } from "./open-work.js";
import { deriveModes } from "./session-modes.js";
import { abandonTasks, beginDrain, closeOpenTools, endOpenTurns, endWithAgent } from "./turn-ends.js";

// The session and its agent coming and going: opened, the agent gone, the session left, a restart.

type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

/** A session opened (new, loaded, resumed, forked): what it said about itself, and the phase it starts in. */
export function applySessionStarted(d: Draft, ev: EventOf<"session_started">): void {
  const s = d.s;
  s.auth = undefined;
  s.info = ev.info;
  s.modes = ev.info.modes ?? s.modes;
  s.models = ev.info.models ?? s.models;
  s.configOptions = ev.info.configOptions ?? s.configOptions;
  if (ev.info.modes) s.modeConfigId = undefined;
  deriveModes(s);
  // After a load the replay already set the phase (draining until its tail is quiet).
  if (s.phase === "starting" || s.phase === "auth") {
    if (openWork(s).length) beginDrain(d);
    else s.phase = "idle";
  }
  s.failure = undefined;
}

/** The agent's process went away unasked: everything waiting on it ends, and the session failed. */
export function applyAgentExited(d: Draft, ev: EventOf<"agent_exited">): void {
  const s = d.s;
  endWithAgent(d);
  if (ev.expected) return;
  const failure = {
    message: ev.reason ?? `agent exited${ev.code !== null ? ` with code ${ev.code}` : ""}${ev.signal ? ` on ${ev.signal}` : ""}`,
    stderrTail: ev.stderrTail,
    inTranscript: true,
  };
  s.failure = failure;
  for (const id of s.pendingPrompts) d.patchTurn(id, { endedAt: ev.at, error: failure.message });
  s.pendingPrompts = [];
  s.permissions = [];
  s.questions = [];
  closeOpenTools(d, "interrupted");
  abandonTasks(d);
  s.agentState = undefined;
  s.agentBackground = undefined;
  for (const t of Object.values(s.terminals)) if (!t.exited && t.source === "display") exitTerminal(d, t.terminalId, null, null);
  s.phase = "failed";
  s.agentExitedAt = ev.at;
  endOpenTurns(d);
  d.addItem({
    kind: "notice",
    id: d.nextId("i"),
    level: "error",
    text: `${failure.message}${ev.stderrTail ? `\n${ev.stderrTail}` : ""}`,
    failure: true,
  });
}

/** conch left the session for another (`/clear`, `/fork`): what belonged to it ends; its transcript stays on record. */
export function applySessionLeft(d: Draft): void {
  const s = d.s;
  closeOpenTools(d, "cancelled");
  abandonTasks(d);
  endOpenTurns(d);
  for (const id of s.pendingPrompts) d.patchTurn(id, { endedAt: d.at });
  s.pendingPrompts = [];
  s.permissions = [];
  s.questions = [];
  s.currentTurnId = undefined;
  s.agentState = undefined;
  s.agentBackground = undefined;
  s.plan = undefined;
  s.title = undefined;
  s.usage = undefined;
  s.tokens = {};
  s.phase = "starting";
}

/** The agent was started again after a failure. */
export function applyRestarted(d: Draft): void {
  const s = d.s;
  s.failure = undefined;
  s.phase = "starting";
  abandonTasks(d);
  s.agentState = undefined;
  s.agentBackground = undefined;
}
