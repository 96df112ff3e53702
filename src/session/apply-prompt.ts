import type { PromptResponse } from "@agentclientprotocol/sdk";
import { contentText } from "./content-text.js";
import type { Draft } from "./draft.js";
import type { SessionEvent } from "./events.js";
import type { PromptUsage } from "./state.js";
import { addInterruptedMark, markEmptyReply } from "./interrupted-marks.js";
import { endReplayTail } from "./local-history.js";
import {
  abandonTasks,
  beginDrain,
  closeAskedOnly,
  closeOpenTools,
  detachOpenTools,
  endHeldTasks,
  endOpenTurns,
  goIdle,
} from "./turn-ends.js";

// A prompt's life in the fold: sent (from the input or the queue), steered into a running turn, answered.

type EventOf<T extends SessionEvent["type"]> = Extract<SessionEvent, { type: T }>;

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

/** A prompt went out: its turn opens with the message, which leaves the queue if it came from there. */
export function applyPromptSent(d: Draft, ev: EventOf<"prompt_sent">): void {
  const s = d.s;
  if (s.phase === "draining") endOpenTurns(d);
  endReplayTail(d);
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
}

/** The message joins the turn it was steered into, after what the agent has said so far. */
export function applySteered(d: Draft, ev: EventOf<"steered">): void {
  d.addItem({
    kind: "user",
    id: d.nextId("i"),
    turnId: ev.turnId,
    text: ev.prompt.map(contentText).join(""),
    blocks: ev.prompt,
    history: false,
    steered: true,
  });
  d.s.lastAgentActivityAt = ev.at;
}

/** A prompt answered: its turn ends (cancelled, it closes what it left open) or drains until its work is over. */
export function applyPromptResponse(d: Draft, ev: EventOf<"prompt_response">): void {
  const s = d.s;
  const pending = d.pendingPrompts();
  const idx = pending.indexOf(ev.turnId);
  if (idx < 0) return; // a duplicate or stale response changes nothing
  pending.splice(idx, 1);
  const stopReason = ev.response?.stopReason;
  const usage = readUsage(ev.response);
  d.patchTurn(ev.turnId, { endedAt: ev.at, stopReason, error: ev.error, usage });
  s.tokens = addTokens(s.tokens, usage);
  if (stopReason) s.lastStopReason = stopReason;
  if (ev.error) d.addItem({ kind: "notice", id: d.nextId("i"), turnId: ev.turnId, level: "error", text: ev.error });
  s.lastAgentActivityAt = ev.at;
  if (stopReason === "cancelled" || s.phase === "cancelling") {
    detachOpenTools(d, ev.turnId, true);
    closeOpenTools(d, "cancelled", new Set([ev.turnId]));
    if (stopReason === "cancelled") addInterruptedMark(d, ev.turnId, false);
    if (pending.length === 0) {
      abandonTasks(d);
      goIdle(d);
    }
    return;
  }
  if (!ev.error) markEmptyReply(d, ev.turnId);
  detachOpenTools(d, ev.turnId);
  closeAskedOnly(d, new Set([ev.turnId]));
  endHeldTasks(d, ev.turnId);
  // The turn drains even with nothing open: the turn machine asks the agent's profile when it is over.
  if (pending.length === 0) beginDrain(d);
}
