import type { ToolCallContent } from "@agentclientprotocol/sdk";
import type { SessionEvent } from "../session/events.js";
import type { PassedCall } from "../session/retire-calls.js";
import {
  displayStatus,
  isFinalStatus,
  type ContextUsage,
  type SessionState,
  type TerminalView,
  type ToolCallView,
  type ToolDisplayStatus,
} from "../session/state.js";
import type { PrintResult } from "./print-result.js";
import { OUTPUT_TAIL_BYTES } from "../session/apply-terminal.js";
import { strippedOutput } from "../text/terminal-safe.js";

export { STREAM_JSON_VERSION, type StreamContent, type StreamJsonLine } from "./stream-json-schema.js";
import { STREAM_JSON_VERSION, type StreamContent, type StreamJsonLine } from "./stream-json-schema.js";

/** `JSON.stringify({ type, v, delta })` up to the delta: every line of text or thought begins so. */
const TEXT_HEAD = `{"type":"text","v":${STREAM_JSON_VERSION},"delta":`;
const THOUGHT_HEAD = `{"type":"thought","v":${STREAM_JSON_VERSION},"delta":`;

/**
 * Maps conch's session events to stream-json's public lines. Only the documented lines come out:
 * an internal event with no public meaning (timers, queue edits, terminals' bytes, replayed
 * history) is dropped, so a refactor of the events never changes what a script reads.
 */
/** Whether two plans list the same entries, in order. */
function samePlan(a: SessionState["plan"], b: SessionState["plan"]): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return a.every((e, i) => e.content === b[i].content && e.status === b[i].status && e.priority === b[i].priority);
}

export class StreamJsonMapper {
  private readonly seenCalls = new Set<string>();
  /** Exited terminals whose output a line has carried. */
  private readonly outputShown = new Set<string>();
  /** Calls streamed with a status that may still change, and that status. */
  private readonly unsettled = new Map<string, ToolDisplayStatus>();
  private readonly permissionCalls = new Map<string, string>();
  private plan: SessionState["plan"];
  private usage: ContextUsage | undefined;

  /** `from`: the session as it stands when streaming starts (a resume's history), so its old plan and usage are not news. */
  constructor(from?: SessionState) {
    this.plan = from?.plan;
    this.usage = from?.usage;
  }

  /** The lines for `ev`, read against `state`, the session right after it; `v` follows `type`, so a person reading the stream sees both first. */
  linesFor(state: SessionState, ev: SessionEvent): StreamJsonLine[] {
    const lines = this.map(state, ev);
    // conch's own conclusions (cancelled, background, ended with the agent, stalled) come from its
    // events, not from an agent's update: a call still unsettled is streamed again when they change it.
    if (ev.type !== "update") lines.push(...this.settledCalls(state));
    // Plans and the context meter are read from the fold: an agent's profile may make them from other updates.
    // By content: a profile may make the same list again from another update (opencode's todowrite
    // carries it in its input and again in its output), which is no news.
    if (state.plan !== this.plan) {
      const same = samePlan(state.plan, this.plan);
      this.plan = state.plan;
      if (state.plan && !same && !(ev.type === "update" && ev.history)) {
        lines.push({
          type: "plan",
          v: STREAM_JSON_VERSION,
          entries: state.plan.map((e) => ({ content: e.content, status: e.status, priority: e.priority })),
        });
      }
    }
    if (state.usage !== this.usage) {
      this.usage = state.usage;
      if (state.usage && !(ev.type === "update" && ev.history)) {
        const { used, size, cost } = state.usage;
        lines.push({ type: "usage", v: STREAM_JSON_VERSION, used, size, cost: cost ?? null });
      }
    }
    return lines;
  }

  /**
   * The lines for `ev` as written, each with its newline ("" when none). Most of a stream is
   * pieces of text with nothing else changed: those are written without building the line.
   */
  textFor(state: SessionState, ev: SessionEvent): string {
    if (ev.type === "update" && !ev.history && state.plan === this.plan && state.usage === this.usage) {
      const u = ev.notification.update;
      if ((u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "agent_thought_chunk") && u.content.type === "text") {
        const delta = u.content.text;
        if (delta === "") return "";
        return `${u.sessionUpdate === "agent_message_chunk" ? TEXT_HEAD : THOUGHT_HEAD}${JSON.stringify(delta)}}\n`;
      }
    }
    let text = "";
    for (const line of this.linesFor(state, ev)) text += `${JSON.stringify(line)}\n`;
    return text;
  }

  /** Calls that left the session's state (print mode's retirement): nothing more is said of them. */
  forget(passed: readonly PassedCall[]): void {
    for (const { call, kept } of passed) if (!kept) this.seenCalls.delete(call.toolCallId);
  }

  /** Calls a late update brought back into the state: streamed before, so its line is an update. */
  remember(calls: readonly ToolCallView[]): void {
    for (const call of calls) this.seenCalls.add(call.toolCallId);
  }

  /** The last line: the result object of `--output-format json`, versioned. */
  resultLine(result: PrintResult): Extract<StreamJsonLine, { type: "result" }> {
    const { type, ...fields } = result;
    return { type, v: STREAM_JSON_VERSION, ...fields };
  }

  private map(state: SessionState, ev: SessionEvent): StreamJsonLine[] {
    switch (ev.type) {
      case "session_started": {
        const { sessionId, agentName, agentInfo, cwd, origin } = ev.info;
        return [
          {
            type: "system",
            v: STREAM_JSON_VERSION,
            subtype: "init",
            sessionId,
            agent: agentName,
            agentVersion: agentInfo?.version ?? null,
            cwd,
            origin,
          },
        ];
      }
      case "prompt_sent":
        return [
          {
            type: "prompt",
            v: STREAM_JSON_VERSION,
            turnId: ev.turnId,
            text: ev.prompt.map((b) => (b.type === "text" ? b.text : "")).join(""),
          },
        ];
      case "update":
        return ev.history ? [] : this.mapUpdate(state, ev.notification.update);
      case "permission_asked": {
        const call = ev.request.toolCall;
        this.permissionCalls.set(ev.key, call.toolCallId);
        const shown = state.toolCalls[call.toolCallId];
        return [
          {
            type: "permission",
            v: STREAM_JSON_VERSION,
            subtype: "asked",
            id: ev.key,
            toolCallId: call.toolCallId,
            title: shown?.title ?? call.title ?? "",
            options: ev.request.options.map((o) => ({ id: o.optionId, name: o.name, kind: o.kind })),
            content: this.publicContent(state, shown?.content ?? call.content ?? []),
          },
        ];
      }
      case "permission_answered":
      case "permission_withdrawn": {
        const selected = ev.type === "permission_answered" && ev.outcome.outcome === "selected" ? ev.outcome.optionId : null;
        const asked = this.permissionCalls.get(ev.key);
        // The fold records the chosen option's kind on the call it was asked for.
        const optionKind = asked !== undefined && selected !== null ? (state.toolCalls[asked]?.permission?.optionKind ?? null) : null;
        return [
          {
            type: "permission",
            v: STREAM_JSON_VERSION,
            subtype: "answered",
            id: ev.key,
            toolCallId: asked ?? null,
            outcome: selected !== null ? "selected" : "cancelled",
            optionId: selected,
            optionKind,
            source: ev.type === "permission_answered" ? ev.source : "agent",
            ...(ev.type === "permission_answered" && ev.rule ? { rule: `${ev.rule.text} ${ev.rule.from}` } : {}),
          },
        ];
      }
      case "terminal_exited":
        return this.exitedTerminal(state, ev.terminalId);
      case "notice":
        return [{ type: "notice", v: STREAM_JSON_VERSION, level: ev.level, text: ev.text }];
      case "failed":
        return [{ type: "notice", v: STREAM_JSON_VERSION, level: "error", text: ev.message }];
      default:
        return [];
    }
  }

  private mapUpdate(state: SessionState, update: Extract<SessionEvent, { type: "update" }>["notification"]["update"]): StreamJsonLine[] {
    switch (update.sessionUpdate) {
      // Agents open blocks with empty chunks (claude 0.23): no news for a script.
      case "agent_message_chunk":
        return update.content.type === "text" && update.content.text !== ""
          ? [{ type: "text", v: STREAM_JSON_VERSION, delta: update.content.text }]
          : [];
      case "agent_thought_chunk":
        return update.content.type === "text" && update.content.text !== ""
          ? [{ type: "thought", v: STREAM_JSON_VERSION, delta: update.content.text }]
          : [];
      case "tool_call":
      case "tool_call_update": {
        // A call the agent's profile made into something else (a plan, a poll of another command) is not a tool call here.
        const call = state.toolCalls[update.toolCallId];
        if (!call || call.pollOf !== undefined) return [];
        const first = !this.seenCalls.has(call.toolCallId);
        // A display terminal's exit comes in the call's own update (`_meta.terminal_exit`): its output goes with it.
        const withContent = first || update.content != null || this.hasNewOutput(state, call);
        return [this.callLine(state, call, withContent)];
      }
      default:
        return [];
    }
  }

  /** A `tool_call` line for `call`: `start` the first time, else `update`; with its content when asked. */
  private callLine(state: SessionState, call: ToolCallView, withContent: boolean): StreamJsonLine {
    const first = !this.seenCalls.has(call.toolCallId);
    this.seenCalls.add(call.toolCallId);
    const status = displayStatus(call);
    if (isFinalStatus(call)) this.unsettled.delete(call.toolCallId);
    else this.unsettled.set(call.toolCallId, status);
    return {
      type: "tool_call",
      v: STREAM_JSON_VERSION,
      subtype: first ? "start" : "update",
      id: call.toolCallId,
      title: call.title,
      kind: call.kind ?? null,
      status,
      ...(withContent ? { content: this.publicContent(state, call.content) } : {}),
    };
  }

  /** Update lines for the unsettled calls whose status changed without an update of their own. */
  private settledCalls(state: SessionState): StreamJsonLine[] {
    const lines: StreamJsonLine[] = [];
    for (const [id, sent] of this.unsettled) {
      const call = state.toolCalls[id];
      if (call && displayStatus(call) !== sent) lines.push(this.callLine(state, call, false));
    }
    return lines;
  }

  /** A client terminal exited: the call that shows it gets a line with its output, as its content changed. */
  private exitedTerminal(state: SessionState, terminalId: string): StreamJsonLine[] {
    const callId = state.toolByTerminal.get(terminalId);
    const call = callId === undefined ? undefined : state.toolCalls[callId];
    if (!call || call.pollOf !== undefined || !this.seenCalls.has(call.toolCallId) || !this.hasNewOutput(state, call)) return [];
    return [this.callLine(state, call, true)];
  }

  /** Whether a terminal in the call's content exited and no line has carried its output yet. */
  private hasNewOutput(state: SessionState, call: ToolCallView): boolean {
    return call.content.some((c) => c.type === "terminal" && state.terminals[c.terminalId]?.exited && !this.outputShown.has(c.terminalId));
  }

  /** Tool call content in the public shape; content with no public form (images, audio) is left out. */
  private publicContent(state: SessionState, content: readonly ToolCallContent[]): StreamContent[] {
    const out: StreamContent[] = [];
    for (const c of content) {
      if (c.type === "diff") out.push({ type: "diff", path: c.path, oldText: c.oldText ?? null, newText: c.newText });
      else if (c.type === "terminal") out.push(this.terminalContent(state.terminals[c.terminalId], c.terminalId));
      else if (c.type === "content" && c.content.type === "text") out.push({ type: "text", text: c.content.text });
    }
    return out;
  }

  /** A terminal's content: its id, and once it exited, what it printed (bounded, flagged when cut). */
  private terminalContent(term: TerminalView | undefined, terminalId: string): StreamContent {
    if (!term?.exited) return { type: "terminal", terminalId };
    this.outputShown.add(terminalId);
    const output = strippedOutput(term.outputTail);
    const kept = output.length > OUTPUT_TAIL_BYTES ? output.slice(output.length - OUTPUT_TAIL_BYTES) : output;
    return { type: "terminal", terminalId, output: kept, truncated: term.outputBytes > term.outputTail.length || kept !== output };
  }
}
