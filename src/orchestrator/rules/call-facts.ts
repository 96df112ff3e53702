import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { requestDisplayOf } from "../../session/profiles/display-of.js";
import type { PendingPermission, SessionState } from "../../session/state.js";
import type { CallFacts } from "./permission-rules.js";

/** The real path of `p`: its deepest existing folder resolved (symlinks followed), the rest as written. */
export function realPathOf(p: string): string {
  const rest: string[] = [];
  let at = p;
  for (;;) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return p;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

/**
 * What rules are matched on, for one permission request: its kind, the command the agent's profile
 * reads from it, and the paths it names, each also with symlinks resolved (a link inside the
 * workspace that points out of it is judged by where it points).
 */
export function callFactsOf(state: SessionState, pending: PendingPermission, cwd: string): CallFacts {
  const display = requestDisplayOf(state, pending);
  const call = pending.request.toolCall;
  const named = new Set<string>();
  for (const l of call.locations ?? state.toolCalls[pending.toolCallId]?.locations ?? []) if (l?.path) named.add(l.path);
  for (const c of call.content ?? []) if (c?.type === "diff" && c.path) named.add(c.path);
  const root = realPathOf(cwd);
  const paths = [...named].map((given) => {
    const abs = path.resolve(cwd, given);
    return { given: abs, real: realPathOf(abs) };
  });
  return { kind: display.kind ?? "other", command: display.command, paths, root, home: os.homedir() };
}
