import { shortPath } from "./bar-fit.js";
import { currentModel } from "../../session/config-options.js";
import type { SessionState } from "../../session/state.js";
import { describeTasks, tasksOf } from "../../session/tasks.js";
import { safeLine } from "../../text/terminal-safe.js";

/** One piece of the status bar. */
export interface BarSegment {
  key: "agent" | "tasks" | "title" | "mode" | "model" | "context" | "cost" | "cwd";
  text: string;
}

/** The agent's display name: what it said in `initialize`, else the preset name. */
export function agentLabel(state: SessionState, fallback: string): string {
  // From `initialize` on (a load can take a while before the session says it again).
  const info = state.info?.agentInfo ?? state.agent?.info;
  return info?.title || info?.name || state.info?.agentName || fallback;
}

/** The current mode's name (or id), when the agent has modes. */
export function modeLabel(state: SessionState): string | undefined {
  const modes = state.modes;
  if (!modes?.currentModeId) return undefined;
  return modes.availableModes?.find((m) => m.id === modes.currentModeId)?.name ?? modes.currentModeId;
}

/** The model in use, as the agent last said (see `currentModel`). */
export function modelLabel(state: SessionState): string | undefined {
  return currentModel(state)?.name;
}

/** "ctx 42%" from the agent's last usage report. */
export function contextLabel(state: SessionState): string | undefined {
  const u = state.usage;
  if (!u || !u.size) return undefined;
  return `ctx ${Math.min(100, Math.round((u.used / u.size) * 100))}%`;
}

/** "$0.42" (or "0.42 EUR"). */
export function costLabel(state: SessionState): string | undefined {
  const cost = state.usage?.cost;
  if (!cost) return undefined;
  const amount = cost.amount < 10 ? cost.amount.toFixed(2) : cost.amount.toFixed(1);
  return cost.currency === "USD" ? `$${amount}` : `${amount} ${cost.currency}`;
}

export { shortPath };

const summaries = new WeakMap<SessionState, string>();

/** "2 tasks running": what runs in the session, from its state alone (the tasks view reads the process table too). */
export function tasksSummary(state: SessionState): string {
  let summary = summaries.get(state);
  if (summary === undefined) summaries.set(state, (summary = describeTasks(tasksOf(state, undefined, { runningOnly: true }))));
  return summary;
}

/** Who else acts in this session: another terminal attached to write, and the last thing it did. */
export function remoteWriterLine(state: SessionState): string | undefined {
  const w = state.remoteWriter;
  if (!w) return undefined;
  return safeLine(`another terminal acts here (conch pid ${w.pid}, attach --write)${w.did ? ` · it ${w.did}` : ""}`);
}

/** The status bar's pieces, in order, leaving out what is unknown. */
export function barSegments(state: SessionState, agentName: string, cwd: string): BarSegment[] {
  const out: BarSegment[] = [{ key: "agent", text: safeLine(agentLabel(state, agentName)) }];
  // Every fact but the cwd comes from the agent.
  const add = (key: BarSegment["key"], text: string | undefined) => text && out.push({ key, text: safeLine(text) });
  add("tasks", tasksSummary(state));
  add("title", state.title);
  add("mode", modeLabel(state));
  add("model", modelLabel(state));
  add("context", contextLabel(state));
  add("cost", costLabel(state));
  add("cwd", shortPath(state.info?.cwd ?? cwd));
  return out;
}
