import type { ClientHooks } from "../../acp/agent-connection.js";
import { AgentLink, type AgentStartOptions } from "./agent-link.js";
import { RemoteAgentLink } from "./remote-agent-link.js";

/** Starts the agent: a process over stdio, or a connection to a remote one; the orchestrator does not care which. */
export function startAgentLink(opts: AgentStartOptions, hooks: ClientHooks): Promise<AgentLink | RemoteAgentLink> {
  return opts.agent.remote ? RemoteAgentLink.start(opts, hooks) : AgentLink.start(opts, hooks);
}
