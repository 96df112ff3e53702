import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { ClientCapabilities as UnstableClientCapabilities } from "@agentclientprotocol/sdk/unstable";

/** What conch advertises in `initialize`: only what it really serves. */
export function clientCapabilities(opts: { terminals: boolean; terminalAuth?: boolean }): ClientCapabilities {
  // `plan` (plan_update / plan_removed) is still unstable: typed by the unstable schema, sent as is.
  const unstable: Pick<UnstableClientCapabilities, "plan"> = { plan: {} };
  return {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: opts.terminals,
    // conch runs an agent's terminal login in a pane, when it can start the agent's command itself.
    auth: { terminal: opts.terminalAuth ?? opts.terminals },
    session: { configOptions: { boolean: {} }, notices: {} },
    elicitation: { form: {}, url: {} },
    ...unstable,
    // The display-only terminal extension of claude-agent-acp and codex-acp.
    _meta: { terminal_output: true },
  };
}
