import { EXIT } from "../errors/conch-error.js";
import { safeLine } from "../text/terminal-safe.js";
import path from "node:path";
import { loadConfig } from "../agents/config-file.js";
import { PRESETS, remoteAgentOf, resolveAgent, type ResolvedAgent } from "../agents/presets.js";
import type { AgentLink } from "../orchestrator/agent/agent-link.js";
import { startAgentLink } from "../orchestrator/agent/connect-agent.js";
import type { RemoteAgentLink } from "../orchestrator/agent/remote-agent-link.js";
import { deleteSession, findSession, listSessions, repairIndex, type SessionRecord } from "../store/session-index.js";
import type { Command } from "./parse-args.js";

/** "3m ago", "2h ago", "5d ago". */
export function age(iso: string, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

/** A listed session: the local record, or one only the agent knows (`source: "agent"`). */
export type ListedSession = SessionRecord & { source: "local" | "agent" | "both" };

/** Lines of a session table for a person. */
export function formatSessions(records: (SessionRecord & { source?: ListedSession["source"] })[], now = Date.now()): string {
  if (records.length === 0) return "no sessions yet: start one with `conch`";
  // Titles come from the agent (session/list, session_info_update): they may hold escape sequences.
  const rows = records.map((r) => [
    safeLine(r.id),
    safeLine(r.title ?? "(untitled)").slice(0, 48),
    safeLine(r.agent),
    safeLine(r.cwd),
    `${age(r.updatedAt, now)}${r.source === "agent" ? " (agent only)" : ""}`,
  ]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i].length), ["ID", "TITLE", "AGENT", "CWD"][i].length));
  const line = (row: string[]) => row.map((c, i) => (i < 4 ? c.padEnd(widths[i]) : c)).join("  ");
  return [line(["ID", "TITLE", "AGENT", "CWD", "UPDATED"]), ...rows.map(line)].join("\n");
}

/** The saved sessions, this directory's first, as the `conch sessions` table (the UI's /sessions). */
export async function sessionTable(cwd: string): Promise<string> {
  const all = await listSessions();
  return formatSessions([...all.filter((r) => r.cwd === cwd), ...all.filter((r) => r.cwd !== cwd)].slice(0, 20));
}

/** Starts an agent just long enough to call it; undefined if it cannot be started. */
async function withAgent<T>(
  agent: ResolvedAgent,
  cwd: string,
  fn: (link: AgentLink | RemoteAgentLink) => Promise<T>,
): Promise<T | undefined> {
  let link: AgentLink | RemoteAgentLink | undefined;
  try {
    link = await startAgentLink(
      { agent, cwd, terminals: false },
      {
        onUpdate: () => undefined,
        onPermission: async () => ({ outcome: { outcome: "cancelled" } }),
        onNotice: () => undefined,
        root: () => cwd,
      },
    );
    return await fn(link);
  } catch (err) {
    process.stderr.write(`conch: ${agent.name}: ${(err as Error).message.split("\n")[0]}\n`);
    return undefined;
  } finally {
    await link?.stop();
  }
}

/** The agent's own `session/list` for a cwd, merged into the local records (local wins on conflicts). */
export function mergeSessions(
  local: SessionRecord[],
  remote: { sessionId: string; cwd: string; title?: string | null; updatedAt?: string | null }[],
  agent: string,
): ListedSession[] {
  const byId = new Map<string, ListedSession>(local.map((r) => [r.id, { ...r, source: "local" }]));
  for (const s of remote) {
    const mine = byId.get(s.sessionId);
    if (mine) byId.set(s.sessionId, { ...mine, title: mine.title ?? s.title ?? undefined, source: "both" });
    else {
      const updatedAt = s.updatedAt ?? new Date(0).toISOString();
      byId.set(s.sessionId, {
        id: s.sessionId,
        agent,
        agentCommand: [],
        cwd: s.cwd,
        title: s.title ?? undefined,
        createdAt: updatedAt,
        updatedAt,
        messageCount: 0,
        source: "agent",
      });
    }
  }
  return [...byId.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

function agentOf(rec: SessionRecord): ResolvedAgent | undefined {
  // An untrusted project never chooses the agent conch starts to delete a session.
  const config = loadConfig(rec.cwd, process.env, { untrusted: "leave-out" });
  if (PRESETS.some((p) => p.name === rec.agent) || config.agents[rec.agent]) return resolveAgent(rec.agent, config.agents);
  if (rec.agentCommand.length === 1 && remoteAgentOf(rec.agentCommand[0])) return resolveAgent(rec.agentCommand[0]);
  if (rec.agentCommand.length)
    return { name: rec.agent, command: { command: rec.agentCommand[0], args: rec.agentCommand.slice(1) }, via: "command" };
  return undefined;
}

/** `conch sessions` and `conch sessions delete <id>`. */
export async function runSessionsCommand(cmd: Extract<Command, { kind: "sessions" }>): Promise<number> {
  if (cmd.action === "delete") {
    const found = await findSession(cmd.id!);
    if (!("match" in found)) {
      process.stderr.write(`conch: no session ${cmd.id}${"ambiguous" in found ? " (ambiguous prefix)" : ""}\n`);
      return EXIT.sessionNotFound;
    }
    const rec = found.match;
    try {
      await deleteSession(rec.id);
    } catch (err) {
      process.stderr.write(`conch: ${(err as Error).message}\n`);
      return EXIT.failed;
    }
    const agent = agentOf(rec);
    const atAgent = agent
      ? await withAgent(agent, rec.cwd, async (link) => {
          if (!link.init.agentCapabilities?.sessionCapabilities?.delete) return false;
          await link.conn.deleteSession(rec.id);
          return true;
        })
      : false;
    process.stdout.write(`deleted session ${rec.id}${atAgent ? ` (also at ${rec.agent})` : ""}\n`);
    return EXIT.ok;
  }
  const cwd = cmd.cwd ? path.resolve(cmd.cwd) : process.cwd();
  // A damaged index is rebuilt from the logs either way; saving the repair may fail (a full disk).
  const repaired = await repairIndex().catch(() => undefined);
  if (repaired) process.stderr.write(`conch: ${repaired}\n`);
  let records: ListedSession[] = (await listSessions()).map((r) => ({ ...r, source: "local" }));
  if (cmd.agent) {
    const config = loadConfig(cwd, process.env, { untrusted: "leave-out" });
    const agent = resolveAgent(cmd.agent, config.agents);
    const remote = await withAgent(agent, cwd, async (link) =>
      link.init.agentCapabilities?.sessionCapabilities?.list ? (await link.conn.listSessions(cwd)).sessions : [],
    );
    records = mergeSessions(records, remote ?? [], agent.name);
  }
  // This directory's sessions first; the others too with --all, or when there are none here.
  const here = records.filter((r) => r.cwd === cwd);
  const shown = cmd.all || here.length === 0 ? [...here, ...records.filter((r) => r.cwd !== cwd)] : here;
  if (cmd.json) process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  else process.stdout.write(`${formatSessions(shown)}\n`);
  return EXIT.ok;
}
