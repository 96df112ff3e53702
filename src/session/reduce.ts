import type { PromptResponse } from "@agentclientprotocol/sdk";
import { appendTerminalOutput, exitTerminal, openTerminal } from "./apply-terminal.js";
import { upsertToolCall } from "./apply-tool-call.js";
import { applyUpdate, currentTurn, endAgentTurns } from "./apply-update.js";
import { contentText } from "./content-text.js";
import { applyLocalHistory } from "./local-history.js";
import { Draft } from "./draft.js";
import type { OpenWorkKind, SessionEvent } from "./events.js";
import { agentLabel, profileOf } from "./profiles/select-profile.js";
import { deriveModes } from "./session-modes.js";
import { openWork } from "./open-work.js";
import { initialSessionState, isFinalStatus, type PromptUsage, type SessionState } from "./state.js";
import { describeUndo, turnLabel } from "./turn-edits.js";

function readUsage(response: PromptResponse | undefined): PromptUsage | undefined {
  const u = (response as { usage?: unknown } | undefined)?.usage;
  if (!u || typeof u !== "object") return undefined;
  const r = u as Record<string, unknown>;
  const num = (k: string) => (typeof r[k] === "number" ? (r[k] as number) : undefined);
  return {
    inputTokens: num("inputTokens"),
    outputTokens: num("outputTokens"),
    totalTokens: num("totalTokens"),
    thoughtTokens: num("thoughtTokens"),
    cachedReadTokens: num("cachedReadTokens"),
    cachedWriteTokens: num("cachedWriteTokens"),
  };
}

function addTokens(a: PromptUsage, b: PromptUsage | undefined): PromptUsage {
  if (!b) return a;
  const sum = (x?: number | null, y?: number | null) => (x ?? 0) + (y ?? 0);
  return {
    inputTokens: sum(a.inputTokens, b.inputTokens),
    outputTokens: sum(a.outputTokens, b.outputTokens),
    totalTokens: sum(a.totalTokens, b.totalTokens),
  };
}

/** Closes the open tool calls of the given turns locally: the agent may never say so itself. */
function closeOpenTools(d: Draft, status: "cancelled" | "interrupted", turnIds?: Set<string>): void {
  for (const tool of d.openTools()) {
    if (turnIds && !turnIds.has(tool.turnId)) continue;
    d.setTool({ ...tool, localStatus: status, endedAt: d.at, detached: undefined });
  }
}

/** Stops waiting for the reports the agent owes: its turn was cancelled, or the process is gone. */
function abandonTasks(d: Draft): void {
  for (const task of Object.values(d.s.background)) {
    if (task.reportedAt === undefined && task.abandonedAt === undefined) d.background()[task.taskId] = { ...task, abandonedAt: d.at };
  }
}

/**
 * A turn answered while some of its calls still run: an agent whose calls outlive their turn
 * (codex) keeps them running in its own session, where they are shown, not waited on.
 */
function detachOpenTools(d: Draft, turnId: string): void {
  if (!profileOf(d.s).turns.callsOutliveTurn) return;
  for (const tool of d.openTools()) {
    if (tool.turnId === turnId && !tool.detached) d.setTool({ ...tool, detached: true });
  }
}

/** What conch gives up waiting for when open work stalls; the notice says it. */
function applyStall(d: Draft, kind: OpenWorkKind, id: string): void {
  const s = d.s;
  const agent = agentLabel(s);
  switch (kind) {
    case "tool": {
      // Also a finished call whose terminal never reported an exit: it stops holding the turn open.
      const tool = d.tool(id);
      if (tool && !tool.localStatus) d.setTool({ ...tool, localStatus: "stalled" });
      return;
    }
    case "terminal": {
      const term = s.terminals[id];
      if (!term) return;
      const tool = term.toolCallId ? d.tool(term.toolCallId) : undefined;
      if (tool && !tool.localStatus) d.setTool({ ...tool, localStatus: "stalled" });
      else d.terminals()[id] = { ...term, exited: true, exitCode: null, signal: null };
      d.addItem({
        kind: "notice",
        id: d.nextId("i"),
        turnId: s.currentTurnId,
        level: "warning",
        text: `no output from \`${term.command ?? id}\` for a long while: no longer waiting for it`,
      });
      return;
    }
    case "report": {
      const task = s.background[id];
      if (!task || task.reportedAt !== undefined || task.abandonedAt !== undefined) return;
      d.background()[id] = { ...task, abandonedAt: d.at };
      d.addItem({
        kind: "notice",
        id: d.nextId("i"),
        turnId: s.currentTurnId,
        level: "warning",
        text: `${agent} has not reported on \`${task.label}\`: no longer waiting for it`,
      });
      return;
    }
    case "agent_turn":
      endAgentTurns(d);
      d.addItem({
        kind: "notice",
        id: d.nextId("i"),
        turnId: s.currentTurnId,
        level: "warning",
        text: `${agent} went silent during its own turn: no longer waiting for it`,
      });
      return;
    case "agent_state":
      s.agentState = "idle";
      s.agentBackground = undefined;
      d.addItem({
        kind: "notice",
        id: d.nextId("i"),
        turnId: s.currentTurnId,
        level: "warning",
        text: `${agent} still says it is working but has been silent: no longer waiting for it`,
      });
      return;
    case "permission":
      return;
  }
}

/** Ends agent-initiated and history turns that are still open. */
function endOpenTurns(d: Draft): void {
  for (const t of d.s.turns) if (t.endedAt === undefined && t.origin !== "user") d.patchTurn(t.id, { endedAt: d.at });
}

function goIdle(d: Draft): void {
  d.s.phase = "idle";
  endOpenTurns(d);
}

/** The prompt's turn answered and nothing else is in flight: the turn drains until its work is over. */
function beginDrain(d: Draft): void {
  d.s.phase = "draining";
  d.s.drainStartedAt = d.at;
}

/** Applies one event to the session state. Pure: no I/O, no clock; time comes from the event. */
export function reduce(state: SessionState, ev: SessionEvent): SessionState {
  const d = new Draft(state, ev.at);
  applyEvent(d, ev);
  return d.s;
}

/**
 * Applies events in order, as `reduce` one by one would, but through one draft: what arrives in
 * one burst (a read of the agent's output) costs one copy of each collection it touches. With
 * `transient`, not even that: the caller gives up `state` (see Draft).
 */
export function reduceBatch(state: SessionState, events: readonly SessionEvent[], opts: { transient?: boolean } = {}): SessionState {
  if (events.length === 0) return state;
  const d = new Draft(state, events[0].at, opts.transient === true);
  events.forEach((ev, i) => {
    if (i > 0) d.next(ev.at);
    applyEvent(d, ev);
  });
  return d.s;
}

function applyEvent(d: Draft, ev: SessionEvent): void {
  const s = d.s;
  switch (ev.type) {
    case "agent_ready":
      s.agent = { info: ev.info, capabilities: ev.capabilities, ...(ev.steering ? { steering: true } : {}) };
      break;
    case "auth_required":
      s.auth = { methods: ev.methods, message: ev.message };
      s.phase = "auth";
      break;
    case "session_started":
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
      break;
    case "update":
      applyUpdate(d, ev.notification, ev.history);
      break;
    case "prompt_sent": {
      if (s.phase === "draining") endOpenTurns(d);
      s.replayTail = false;
      const text = ev.prompt.map(contentText).join("");
      d.openTurn(ev.turnId, "user", false);
      d.addItem({ kind: "user", id: d.nextId("i"), turnId: ev.turnId, text, blocks: ev.prompt, history: false, queueId: ev.queueId });
      d.pendingPrompts().push(ev.turnId);
      if (ev.queueId) {
        const q = d.queue();
        const idx = q.findIndex((m) => m.id === ev.queueId);
        if (idx >= 0) q.splice(idx, 1);
      }
      s.phase = "prompting";
      s.lastAgentActivityAt = ev.at;
      break;
    }
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
    case "steered":
      // The message joins the turn it was steered into, after what the agent has said so far.
      d.addItem({
        kind: "user",
        id: d.nextId("i"),
        turnId: ev.turnId,
        text: ev.prompt.map(contentText).join(""),
        blocks: ev.prompt,
        history: false,
        steered: true,
      });
      s.lastAgentActivityAt = ev.at;
      break;
    case "prompt_response": {
      const pending = d.pendingPrompts();
      const idx = pending.indexOf(ev.turnId);
      if (idx < 0) break; // a duplicate or stale response changes nothing
      pending.splice(idx, 1);
      const stopReason = ev.response?.stopReason;
      const usage = readUsage(ev.response);
      d.patchTurn(ev.turnId, { endedAt: ev.at, stopReason, error: ev.error, usage });
      s.tokens = addTokens(s.tokens, usage);
      if (stopReason) s.lastStopReason = stopReason;
      if (ev.error) d.addItem({ kind: "notice", id: d.nextId("i"), turnId: ev.turnId, level: "error", text: ev.error });
      s.lastAgentActivityAt = ev.at;
      if (stopReason === "cancelled" || s.phase === "cancelling") {
        closeOpenTools(d, "cancelled", new Set([ev.turnId]));
        if (pending.length === 0) {
          abandonTasks(d);
          goIdle(d);
        }
        break;
      }
      detachOpenTools(d, ev.turnId);
      // The turn drains even with nothing open: the turn machine asks the agent's profile when it is over.
      if (pending.length === 0) beginDrain(d);
      break;
    }
    case "permission_asked": {
      const tc = ev.request.toolCall;
      const history = false;
      upsertToolCall(d, tc, () => currentTurn(d, history), history);
      d.permissions().push({ key: ev.key, toolCallId: tc.toolCallId, options: ev.request.options, request: ev.request, askedAt: ev.at });
      s.lastAgentActivityAt = ev.at;
      break;
    }
    case "permission_answered":
    case "permission_withdrawn": {
      const perms = d.permissions();
      const idx = perms.findIndex((p) => p.key === ev.key);
      if (idx < 0) break;
      const [p] = perms.splice(idx, 1);
      const tool = d.tool(p.toolCallId);
      if (!tool) break;
      if (ev.type === "permission_withdrawn") {
        d.setTool({ ...tool, permission: { outcome: "cancelled", source: "agent" } });
        break;
      }
      const option =
        ev.outcome.outcome === "selected" ? p.options.find((o) => o.optionId === (ev.outcome as { optionId: string }).optionId) : undefined;
      const rejected = option?.kind === "reject_once" || option?.kind === "reject_always";
      const cancelled = ev.outcome.outcome === "cancelled";
      const closeAs = rejected ? "rejected" : cancelled ? "cancelled" : undefined;
      d.setTool({
        ...tool,
        permission: { outcome: ev.outcome.outcome, optionName: option?.name, optionKind: option?.kind, source: ev.source },
        localStatus: closeAs && !isFinalStatus(tool) ? closeAs : tool.localStatus,
        endedAt: closeAs && !isFinalStatus(tool) ? ev.at : tool.endedAt,
      });
      break;
    }
    case "question_asked": {
      d.questions().push({ key: ev.key, request: ev.request, askedAt: ev.at });
      const message = ev.request.message;
      d.addItem({
        kind: "notice",
        id: d.nextId("i"),
        turnId: s.currentTurnId,
        level: "info",
        text: `${s.info?.agentName ?? "the agent"} asks: ${message}`,
      });
      s.lastAgentActivityAt = ev.at;
      break;
    }
    case "question_answered": {
      const qs = d.questions();
      const idx = qs.findIndex((q) => q.key === ev.key);
      if (idx < 0) break;
      qs.splice(idx, 1);
      d.addItem({ kind: "notice", id: d.nextId("i"), turnId: s.currentTurnId, level: "info", text: `answered: ${ev.response.action}` });
      break;
    }
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
      break;
    case "replay_ended":
      s.replaying = false;
      s.replayTail = !ev.error && profileOf(s).turns.replayOutlivesResponse;
      if (ev.error) d.addItem({ kind: "notice", id: d.nextId("i"), level: "error", text: ev.error });
      if (ev.local) applyLocalHistory(d, ev.local);
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
      openTerminal(d, {
        terminalId: ev.terminalId,
        source: "client",
        command: [ev.command, ...ev.args].join(" "),
        cwd: ev.cwd,
        history: false,
      });
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
    case "notice":
      d.addItem({ kind: "notice", id: d.nextId("i"), turnId: s.currentTurnId, level: ev.level, text: ev.text });
      break;
    case "agent_exited":
      if (ev.expected) break;
      s.failure = {
        message: ev.reason ?? `agent exited${ev.code !== null ? ` with code ${ev.code}` : ""}${ev.signal ? ` on ${ev.signal}` : ""}`,
        stderrTail: ev.stderrTail,
      };
      for (const id of s.pendingPrompts) d.patchTurn(id, { endedAt: ev.at, error: s.failure.message });
      s.pendingPrompts = [];
      s.permissions = [];
      s.questions = [];
      closeOpenTools(d, "interrupted");
      abandonTasks(d);
      s.agentState = undefined;
      s.agentBackground = undefined;
      for (const t of Object.values(s.terminals)) if (!t.exited && t.source === "display") exitTerminal(d, t.terminalId, null, null);
      s.phase = "failed";
      endOpenTurns(d);
      d.addItem({
        kind: "notice",
        id: d.nextId("i"),
        level: "error",
        text: `${s.failure.message}${ev.stderrTail ? `\n${ev.stderrTail}` : ""}`,
      });
      break;
    case "failed":
      s.failure = { message: ev.message, stderrTail: ev.stderrTail ?? s.failure?.stderrTail, ...(ev.kind ? { kind: ev.kind } : {}) };
      s.phase = "failed";
      break;
    case "session_left":
      // What belonged to the old session ends with it; its transcript stays on record.
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
      break;
    case "restarted":
      s.failure = undefined;
      s.phase = "starting";
      abandonTasks(d);
      s.agentState = undefined;
      s.agentBackground = undefined;
      break;
  }
}

/** Folds a whole event list, e.g. a session log read back from disk. */
export function foldEvents(events: Iterable<SessionEvent>, from?: SessionState): SessionState {
  // A fold from scratch owns every state it makes: nothing needs copying on the way.
  return reduceBatch(from ?? initialSessionState(), [...events], { transient: from === undefined });
}
