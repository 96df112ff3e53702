import { applyPermissionAsked, applyPermissionClosed, applyQuestionAnswered, applyQuestionAsked } from "./apply-decision.js";
import { applyAgentExited, applyRestarted, applySessionLeft, applySessionStarted } from "./apply-lifecycle.js";
import { applyPromptResponse, applyPromptSent, applySteered } from "./apply-prompt.js";
import { applyStall } from "./apply-stall.js";
import { applyCommandChecked, applyStopRequested, applyTerminalStarted } from "./apply-command.js";
import { appendTerminalOutput, exitTerminal } from "./apply-terminal.js";
import { applyAgentSignal } from "./apply-signal.js";
import { applyUpdate } from "./apply-update.js";
import { applyLocalHistory } from "./local-history.js";
import { endReplayedTurn } from "./interrupted-marks.js";
import { Draft } from "./draft.js";
import type { SessionEvent } from "./events.js";
import { profileOf } from "./profiles/select-profile.js";
import { openWork } from "./open-work.js";
import { initialSessionState, type SessionState } from "./state.js";
import { abandonTasks, beginDrain, closeOpenTools, endOpenTurns, endWithAgent, goIdle } from "./turn-ends.js";
import { describeUndo, turnLabel } from "./turn-edits.js";

/** Applies one event to the session state. Pure: no I/O, no clock; time comes from the event. */
export function reduce(state: SessionState, ev: SessionEvent): SessionState {
  const d = new Draft(state, ev.at);
  applyEvent(d, ev);
  return d.s;
}

/** What `reduceBatch` may be asked besides the events. */
export interface BatchOptions {
  /** The caller owns `state` and gives it up: nothing is copied (see Draft). */
  transient?: boolean;
  /**
   * Called after each event with the session as that event left it: the draft, which the batch's
   * next event goes on changing, so it is read during the call and never kept.
   */
  each?: (state: SessionState, ev: SessionEvent) => void;
}

/**
 * Applies events in order, as `reduce` one by one would, but through one draft: what arrives in
 * one burst (a read of the agent's output) costs one copy of each collection it touches.
 */
export function reduceBatch(state: SessionState, events: readonly SessionEvent[], opts: BatchOptions = {}): SessionState {
  if (events.length === 0) return state;
  const d = new Draft(state, events[0].at, opts.transient === true);
  const { each } = opts;
  for (let i = 0; i < events.length; i++) {
    const ev = events[i];
    if (i > 0) d.next(ev.at);
    applyEvent(d, ev);
    each?.(d.s, ev);
  }
  return d.s;
}

/** One event through the draft: the small changes here, the larger ones in the `apply-*` module of their kind. */
function applyEvent(d: Draft, ev: SessionEvent): void {
  const s = d.s;
  switch (ev.type) {
    case "agent_ready":
      s.agent = { info: ev.info, capabilities: ev.capabilities, ...(ev.steering ? { steering: true } : {}) };
      // A new agent process: an earlier one's stop (in the log being resumed) is not this one's.
      s.agentStoppingAt = undefined;
      break;
    case "auth_required":
      s.auth = { methods: ev.methods, message: ev.message };
      s.phase = "auth";
      break;
    case "session_started":
      applySessionStarted(d, ev);
      break;
    case "update":
      applyUpdate(d, ev.notification, ev.history);
      break;
    case "agent_signal":
      applyAgentSignal(d, ev.method, ev.params);
      break;
    case "prompt_sent":
      applyPromptSent(d, ev);
      break;
    case "file_written":
      s.writes = [
        ...(s.writes ?? []),
        {
          turnId: ev.turnId,
          label: turnLabel(s, ev.turnId),
          path: ev.path,
          before: ev.before,
          after: ev.after,
          ...(ev.lost ? { lost: ev.lost } : {}),
          sessionId: s.info?.sessionId,
          at: ev.at,
        },
      ];
      break;
    case "edits_undone":
      s.undone = { ...s.undone, [ev.turnId]: [...(s.undone?.[ev.turnId] ?? []), ...ev.restored, ...ev.deleted] };
      d.addItem({ kind: "notice", id: d.nextId("i"), level: ev.skipped.length ? "warning" : "info", text: describeUndo(s, ev) });
      break;
    case "checkpoint":
      s.checkpoints = [
        ...(s.checkpoints ?? []),
        { turnId: ev.turnId, stage: ev.stage, tree: ev.tree, skipped: ev.skipped ?? [], label: turnLabel(s, ev.turnId), at: ev.at },
      ];
      break;
    case "edits_redone": {
      const again = new Set([...ev.restored, ...ev.deleted]);
      s.undone = { ...s.undone, [ev.turnId]: (s.undone?.[ev.turnId] ?? []).filter((p) => !again.has(p)) };
      d.addItem({ kind: "notice", id: d.nextId("i"), level: ev.skipped.length ? "warning" : "info", text: describeUndo(s, ev, "redo") });
      break;
    }
    case "steered":
      applySteered(d, ev);
      break;
    case "prompt_response":
      applyPromptResponse(d, ev);
      break;
    case "permission_asked":
      applyPermissionAsked(d, ev);
      break;
    case "permission_answered":
    case "permission_withdrawn":
      applyPermissionClosed(d, ev);
      break;
    case "question_asked":
      applyQuestionAsked(d, ev);
      break;
    case "question_answered":
      applyQuestionAnswered(d, ev);
      break;
    case "cancel_requested":
      if (s.pendingPrompts.length > 0) s.phase = "cancelling";
      else if (s.phase === "draining") {
        closeOpenTools(d, "cancelled");
        abandonTasks(d);
        goIdle(d);
      }
      break;
    case "detached":
      if (s.phase === "draining") goIdle(d);
      break;
    case "settled":
      if (s.phase === "draining" && openWork(s).length === 0) goIdle(d);
      break;
    case "tool_stalled":
      applyStall(d, "tool", ev.toolCallId);
      break;
    case "work_stalled":
      applyStall(d, ev.kind, ev.id);
      break;
    case "replay_started":
      s.replaying = true;
      s.phase = "replaying";
      s.replayLocal = ev.local;
      if (ev.local?.interrupted?.length || ev.local?.notices?.length)
        s.replayMarks = { interrupted: ev.local.interrupted ?? [], ...(ev.local.notices ? { notices: ev.local.notices } : {}), seen: {} };
      break;
    case "replay_ended":
      endReplayedTurn(d);
      s.replayMarks = undefined;
      s.replaying = false;
      s.replayTail = !ev.error && profileOf(s).turns.replayOutlivesResponse;
      if (ev.error) d.addItem({ kind: "notice", id: d.nextId("i"), level: "error", text: ev.error });
      if (s.replayLocal) applyLocalHistory(d, s.replayLocal);
      s.replayLocal = undefined;
      endOpenTurns(d);
      s.currentTurnId = undefined;
      // Some agents (gemini) go on replaying after they answered the load: the turn machine waits for it.
      if (ev.error) s.phase = "idle";
      else beginDrain(d);
      s.lastAgentActivityAt = ev.at;
      break;
    case "queue_added":
      d.queue().push(ev.blocks ? { id: ev.id, text: ev.text, blocks: ev.blocks } : { id: ev.id, text: ev.text });
      break;
    case "queue_edited": {
      const q = d.queue();
      const idx = q.findIndex((m) => m.id === ev.id);
      // An edited message is its new text; attachments from the old text are dropped with it.
      if (idx >= 0) q[idx] = { id: q[idx].id, text: ev.text };
      break;
    }
    case "queue_removed": {
      const q = d.queue();
      const idx = q.findIndex((m) => m.id === ev.id);
      if (idx >= 0) q.splice(idx, 1);
      break;
    }
    case "terminal_started":
      applyTerminalStarted(d, ev);
      break;
    case "command_checked":
      applyCommandChecked(d, ev);
      break;
    case "task_stop_requested":
      applyStopRequested(d, ev);
      break;
    case "remote_writer":
      s.remoteWriter =
        ev.pid === null ? undefined : { pid: ev.pid, ...(ev.did ? { did: ev.did, didAt: ev.at } : pickDid(s.remoteWriter, ev.pid)) };
      break;
    case "terminal_output": {
      appendTerminalOutput(d, ev.terminalId, ev.data);
      const shownBy = s.toolByTerminal.get(ev.terminalId);
      const tool = shownBy === undefined ? undefined : s.toolCalls[shownBy];
      if (tool) d.setTool({ ...tool, lastAt: ev.at, localStatus: tool.localStatus === "stalled" ? undefined : tool.localStatus });
      break;
    }
    case "terminal_exited":
      exitTerminal(d, ev.terminalId, ev.exitCode, ev.signal);
      break;
    case "terminal_resized":
      // Only the screens (terminals/) follow it: the state keeps no size.
      break;
    case "notice":
      d.addItem({ kind: "notice", id: d.nextId("i"), turnId: s.currentTurnId, level: ev.level, text: ev.text });
      break;
    case "agent_stopping":
      s.agentStoppingAt = ev.at;
      endWithAgent(d);
      break;
    case "agent_exited":
      applyAgentExited(d, ev);
      break;
    case "failed":
      s.failure = { message: ev.message, stderrTail: ev.stderrTail ?? s.failure?.stderrTail, ...(ev.kind ? { kind: ev.kind } : {}) };
      s.phase = "failed";
      break;
    case "session_left":
      applySessionLeft(d);
      break;
    case "restarted":
      applyRestarted(d);
      break;
    case "model_set":
      s.models = { availableModels: s.models?.availableModels ?? [], currentModelId: ev.modelId };
      break;
  }
}

/** What the attached terminal did last, kept while the same one stays attached. */
function pickDid(prev: SessionState["remoteWriter"], pid: number): { did?: string; didAt?: number } {
  return prev?.pid === pid && prev.did ? { did: prev.did, didAt: prev.didAt } : {};
}

/** Folds a whole event list, e.g. a session log read back from disk. */
export function foldEvents(events: Iterable<SessionEvent>, from?: SessionState): SessionState {
  // A fold from scratch owns every state it makes: nothing needs copying on the way.
  return reduceBatch(from ?? initialSessionState(), [...events], { transient: from === undefined });
}
