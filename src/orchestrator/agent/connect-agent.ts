import type { ClientHooks } from "../../acp/agent-connection.js";
import { AgentLink, type AgentStartOptions } from "./agent-link.js";
import type { RemoteAgentLink } from "./remote-agent-link.js";

/**
 * Starts the agent: a process over stdio, or a connection to a remote one; the orchestrator does not care which.
 * The remote link (the SDK's WebSocket and HTTP clients, the `ws` package) loads only for a remote agent:
 * every other start would load it in the task that a key typed at startup waits behind.
 */
export function startAgentLink(opts: AgentStartOptions, hooks: ClientHooks): Promise<AgentLink | RemoteAgentLink> {
  if (!opts.agent.remote) return AgentLink.start(opts, hooks);
  return import("./remote-agent-link.js").then(({ RemoteAgentLink }) => RemoteAgentLink.start(opts, hooks));
}
