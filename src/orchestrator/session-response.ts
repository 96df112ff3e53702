import type { AgentCapabilities, McpServer } from "@agentclientprotocol/sdk";
import type { ModelState, SessionInfo } from "../session/events.js";

/** ACP's auth_required error code. */
export function isAuthRequired(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === -32000;
}

/** The unstable `models` field of a session/new, load or resume answer, when well formed. */
export function readModels(resp: unknown): ModelState | undefined {
  const m = (resp as { models?: unknown } | undefined)?.models;
  if (!m || typeof m !== "object") return undefined;
  const r = m as { currentModelId?: unknown; availableModels?: unknown };
  if (typeof r.currentModelId !== "string") return undefined;
  return {
    currentModelId: r.currentModelId,
    availableModels: Array.isArray(r.availableModels) ? (r.availableModels as ModelState["availableModels"]) : [],
  };
}

/** MCP servers an agent can take: stdio always; http and sse only when it advertises them. */
export function usableMcpServers(servers: McpServer[], caps: AgentCapabilities): { usable: McpServer[]; skipped: McpServer[] } {
  const ok = (s: McpServer) =>
    !("type" in s) || (s.type === "http" ? !!caps.mcpCapabilities?.http : s.type === "sse" ? !!caps.mcpCapabilities?.sse : true);
  return { usable: servers.filter(ok), skipped: servers.filter((s) => !ok(s)) };
}

/**
 * How to open an existing session with this agent: `session/load` (it replays the transcript) or
 * `session/resume` (it does not), in the preferred order, else a new session.
 */
export function reopenMode(
  caps: AgentCapabilities,
  sessionId: string,
  prefer: "replay" | "no-replay",
): { kind: "load" | "resume"; sessionId: string } | { kind: "new" } {
  const canResume = !!(caps.sessionCapabilities as { resume?: unknown } | undefined)?.resume;
  const order: ("load" | "resume")[] = prefer === "replay" ? ["load", "resume"] : ["resume", "load"];
  for (const kind of order) {
    if (kind === "load" ? caps.loadSession : canResume) return { kind, sessionId };
  }
  return { kind: "new" };
}

/** The `--add-dir` directories, when the agent takes them; else none, and a warning that says they were not passed. */
export function passedDirectories(
  dirs: readonly string[],
  caps: AgentCapabilities,
  agentName: string,
): { dirs: string[]; warning?: string } {
  if (!dirs.length) return { dirs: [] };
  if (caps.sessionCapabilities?.additionalDirectories) return { dirs: [...dirs] };
  return { dirs: [], warning: `${agentName} does not take additional directories, so these were not passed: ${dirs.join(", ")}` };
}

/** The configured MCP servers this agent can take; the others are named in a warning. */
export function passedMcpServers(
  servers: McpServer[],
  caps: AgentCapabilities,
  agentName: string,
): { servers: McpServer[]; warning?: string } {
  const { usable, skipped } = usableMcpServers(servers, caps);
  if (!skipped.length) return { servers: usable };
  const names = skipped.map((s) => `${s.name} (${"type" in s ? s.type : "stdio"})`).join(", ");
  return { servers: usable, warning: `${agentName} does not support these MCP servers' transports, so they were not passed: ${names}` };
}

/** The session a session/new, load or resume answer opened: what conch knew before, and what the answer says. */
export function openedSession(
  known: Pick<SessionInfo, "cwd" | "agentName" | "agentInfo" | "agentCapabilities">,
  sessionId: string,
  resp: Pick<SessionInfo, "modes" | "configOptions"> & { models?: unknown },
  origin: SessionInfo["origin"],
): SessionInfo {
  return { ...known, sessionId, modes: resp.modes, models: readModels(resp), configOptions: resp.configOptions, origin };
}

/** What the transcript says when a session that could not be opened (its load failed) is replaced by a new one. */
export function replacedSession(oldId: string, why: string): string {
  return `session ${oldId} could not be opened again, so this is a new session (${why}); ${oldId} is kept: \`conch --resume ${oldId}\` tries it again`;
}
