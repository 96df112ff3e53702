import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import { requestDisplayOf } from "../../session/profiles/display-of.js";
import type { AgentProfile, ToolDisplay } from "../../session/profiles/profile.js";
import { profileOf } from "../../session/profiles/select-profile.js";
import type { PendingPermission, SessionState, ToolCallView } from "../../session/state.js";

/** What a permission prompt shows of one request: everything it reads from the session, and nothing more. */
export interface RequestView {
  permission: PendingPermission;
  /** What the call would do, as the agent's profile reads the request (its copy of the call, gaps filled from the call so far). */
  display: ToolDisplay & { kind?: ToolKind };
  locations: ToolCallLocation[];
  rawInput: unknown;
  /** The session's folder: paths in it are shown relative to it. */
  cwd?: string;
}

/** What a request's view is derived from: the same inputs give the same view. */
interface Inputs {
  known: ToolCallView | undefined;
  cwd: string | undefined;
  terminals: SessionState["terminals"];
  profile: AgentProfile;
}

const views = new WeakMap<PendingPermission, { inputs: Inputs; view: RequestView }>();

/**
 * What the permission prompt shows of a request, derived once from the session: the same object
 * while nothing it shows changed, so the prompt keeps its rows by the view's identity.
 */
export function requestViewOf(state: SessionState, permission: PendingPermission): RequestView {
  const known = state.toolCalls[permission.toolCallId];
  const inputs: Inputs = { known, cwd: state.info?.cwd, terminals: state.terminals, profile: profileOf(state) };
  const hit = views.get(permission);
  if (hit && (Object.keys(inputs) as (keyof Inputs)[]).every((k) => hit.inputs[k] === inputs[k])) return hit.view;
  const view: RequestView = {
    permission,
    display: requestDisplayOf(state, permission),
    locations: permission.request.toolCall.locations ?? known?.locations ?? [],
    rawInput: permission.request.toolCall.rawInput ?? known?.rawInput,
    cwd: inputs.cwd,
  };
  views.set(permission, { inputs, view });
  return view;
}
