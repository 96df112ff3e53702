import type { PendingPermission, SessionState, TerminalView, ToolCallView } from "../state.js";
import type { ToolDisplay } from "./profile.js";
import { profileOf } from "./select-profile.js";

const cache = new WeakMap<ToolCallView, { terminals: (TerminalView | undefined)[]; display: ToolDisplay }>();

/** The ids of the terminals a call shows, in order: its own, then those its content names. */
export function terminalIdsOf(tool: ToolCallView): string[] {
  const ids = new Set<string>(tool.terminalId ? [tool.terminalId] : []);
  for (const c of tool.content) if (c?.type === "terminal") ids.add(c.terminalId);
  return [...ids];
}

/** The views of the terminals a call shows: what its display depends on besides the call itself. */
export function terminalViewsOf(state: SessionState, tool: ToolCallView): (TerminalView | undefined)[] {
  return terminalIdsOf(tool).map((id) => state.terminals[id]);
}

/**
 * Whether a call that outlived its turn is still live: its agent goes on reporting it (codex-acp
 * 2.x streams its output and sends its end), so it is shown running, with its output, until then.
 */
export function reportedInBackground(state: SessionState, tool: ToolCallView): boolean {
  return tool.detached === true && !tool.localStatus && profileOf(state).turns.outlivingCallsReport;
}

/** Whether any call runs on live in the background (see `reportedInBackground`): its pane still changes. */
export function hasLiveBackground(state: SessionState): boolean {
  for (const id of state.openToolIds) if (reportedInBackground(state, state.toolCalls[id])) return true;
  return false;
}

/** Whether two lists hold the same objects, in order. */
function sameObjects<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** What a tool call shows, as the session's agent means it; derived once per change of the call or its terminals. */
export function displayOf(state: SessionState, tool: ToolCallView): ToolDisplay {
  const hit = cache.get(tool);
  const terminals = terminalViewsOf(state, tool);
  if (hit && sameObjects(hit.terminals, terminals)) return hit.display;
  const display = profileOf(state).display(tool, { terminals: state.terminals });
  cache.set(tool, { terminals, display });
  return display;
}

/**
 * What a permission request would run: the request's own copy of the call, which is what the agent
 * asks about, with gaps filled from the call as merged so far.
 */
export function requestDisplayOf(state: SessionState, permission: PendingPermission): ToolDisplay & { kind?: ToolCallView["kind"] } {
  const asked = permission.request.toolCall;
  const known = state.toolCalls[permission.toolCallId];
  const merged: ToolCallView = {
    ...(known ?? {
      toolCallId: permission.toolCallId,
      turnId: "",
      status: "pending",
      meta: {},
      history: false,
      lastSeq: 0,
      startedAt: permission.askedAt,
    }),
    title: asked.title ?? known?.title ?? permission.toolCallId,
    kind: asked.kind ?? known?.kind ?? undefined,
    content: asked.content ?? known?.content ?? [],
    locations: asked.locations ?? known?.locations ?? [],
    rawInput: asked.rawInput ?? known?.rawInput,
    // Output is what ran; a request is about what will run.
    rawOutput: undefined,
  };
  return { ...profileOf(state).display(merged, { terminals: state.terminals }), kind: merged.kind };
}
