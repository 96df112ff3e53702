import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AvailableCommand, InitializeResponse, McpServer, NewSessionResponse } from "@agentclientprotocol/sdk";
import { describeRpcError } from "../acp/agent-connection.js";
import type { ResolvedAgent } from "../agents/presets.js";
import { AgentLink } from "../orchestrator/agent/agent-link.js";
import { isAuthRequired, usableMcpServers } from "../orchestrator/session-response.js";
import { safeLine } from "../text/terminal-safe.js";
import { probeRows, turnSignalRows, type ProbeRow, type SignalRow } from "./probe-rows.js";

/** What `conch agents --probe` found out about one agent. */
export interface ProbeReport {
  name: string;
  command: string;
  ok: boolean;
  /** Why the agent could not be probed (it did not start, or did not answer `initialize`). */
  error?: string;
  agentInfo?: { name: string; title?: string; version?: string };
  protocolVersion?: number;
  startMs?: number;
  /** How `session/new` went: the session it opened, or why not. */
  session?: { ok: boolean; ms?: number; error?: string; closed?: boolean };
  rows: ProbeRow[];
  /** How conch knows this agent's turn is over, best first (`session/profiles/turn-signals.ts`). */
  signals: SignalRow[];
  warnings: string[];
  /** The whole `initialize` result and `session/new` answer, for `--json`. */
  initialize?: InitializeResponse;
  newSession?: NewSessionResponse;
}

/** How long `session/new` and `session/close` may take before the probe gives up on them (opencode takes seconds). */
const SESSION_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 5_000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The configured MCP servers this agent would not be given, each in a warning. */
export function mcpWarnings(init: InitializeResponse, servers: readonly McpServer[]): string[] {
  const { skipped } = usableMcpServers([...servers], init.agentCapabilities ?? {});
  return skipped.map(
    (s) =>
      `MCP server "${safeLine(s.name)}" (${"type" in s ? s.type : "stdio"}) will be dropped: the agent does not take ${"type" in s ? s.type : "stdio"} servers`,
  );
}

/**
 * Starts the agent in an empty temp dir, reads its `initialize` and a `session/new` (closed again
 * when the agent offers `session/close`), stops it, and reports what it advertises. Never throws.
 */
export async function probeAgent(
  agent: ResolvedAgent,
  mcpServers: readonly McpServer[],
  opts: { startTimeoutMs?: number } = {},
): Promise<ProbeReport> {
  const command = [agent.command.command, ...agent.command.args].join(" ");
  const report: ProbeReport = { name: agent.name, command, ok: false, rows: [], signals: [], warnings: [] };
  const dir = mkdtempSync(path.join(tmpdir(), "conch-probe-"));
  const commands: AvailableCommand[] = [];
  let link: AgentLink | undefined;
  try {
    const t0 = Date.now();
    link = await AgentLink.start(
      { agent, cwd: dir, terminals: true, startTimeoutMs: opts.startTimeoutMs },
      {
        onUpdate: (n) => {
          if (n.update.sessionUpdate === "available_commands_update") commands.splice(0, commands.length, ...n.update.availableCommands);
        },
        onPermission: async () => ({ outcome: { outcome: "cancelled" } }),
        onNotice: () => undefined,
        root: () => dir,
      },
    );
    report.startMs = Date.now() - t0;
    const init = link.init;
    report.ok = true;
    report.initialize = init;
    report.protocolVersion = init.protocolVersion;
    // A raw command line is named by its program ("node"); the agent's own name says more.
    if (agent.via === "command" && init.agentInfo?.name) report.name = safeLine(init.agentInfo.name);
    if (init.agentInfo)
      report.agentInfo = {
        name: safeLine(init.agentInfo.name),
        title: init.agentInfo.title ? safeLine(init.agentInfo.title) : undefined,
        version: init.agentInfo.version ? safeLine(init.agentInfo.version) : undefined,
      };
    const t1 = Date.now();
    try {
      const session = await withTimeout(link.conn.newSession(dir), SESSION_TIMEOUT_MS, "session/new");
      report.newSession = session;
      report.session = { ok: true, ms: Date.now() - t1 };
      if (init.agentCapabilities?.sessionCapabilities?.close) {
        report.session.closed = await withTimeout(link.conn.closeSession(session.sessionId), CLOSE_TIMEOUT_MS, "session/close").then(
          () => true,
          () => false,
        );
      }
    } catch (err) {
      const why = isAuthRequired(err) ? `it wants a login first (${describeRpcError(err)})` : describeRpcError(err);
      report.session = { ok: false, error: safeLine(why) };
    }
    report.rows = probeRows(init, report.newSession, commands);
    report.signals = turnSignalRows(init.agentInfo);
    report.warnings = mcpWarnings(init, mcpServers);
  } catch (err) {
    report.error = safeLine((err as Error).message.split("\n")[0]);
  } finally {
    await link?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  return report;
}

/** A report as a person reads it: a heading, then the table, then warnings. */
export function formatProbe(report: ProbeReport): string {
  const lines: string[] = [];
  const who = report.agentInfo
    ? `${report.agentInfo.name}${report.agentInfo.version ? ` ${report.agentInfo.version}` : ""}${report.agentInfo.title ? ` (${report.agentInfo.title})` : ""}`
    : "";
  lines.push(`${report.name}: ${safeLine(report.command)}`);
  if (!report.ok) {
    lines.push(`  could not probe it: ${report.error ?? "unknown error"}`);
    return lines.join("\n");
  }
  lines.push(`  ${who || "(no agentInfo)"} · protocol ${report.protocolVersion ?? "?"} · initialize in ${report.startMs ?? "?"} ms`);
  const s = report.session;
  if (s)
    lines.push(
      s.ok
        ? `  session/new in ${s.ms} ms${s.closed === true ? ", then session/close" : s.closed === false ? ", session/close failed" : ""}`
        : `  session/new failed: ${s.error}`,
    );
  // Columns as wide as their cells, up to a limit; a longer cell keeps its whole text and the row goes on below it.
  const width = (k: keyof ProbeRow, max: number) => Math.min(max, Math.max(10, ...report.rows.map((r) => r[k].length)));
  const cw = width("capability", 24);
  const aw = width("advertised", 40);
  lines.push(`  ${"capability".padEnd(cw)}  ${"advertised".padEnd(aw)}  conch`);
  for (const r of report.rows) {
    const head = `  ${r.capability.padEnd(cw)}  ${r.advertised}`;
    if (r.capability.length <= cw && r.advertised.length <= aw) lines.push(`${head.padEnd(cw + aw + 4)}  ${r.conch}`);
    else lines.push(head, `  ${"".padEnd(cw + aw + 2)}  ${r.conch}`);
  }
  if (report.signals.length) {
    lines.push("  how conch knows a turn is over, best first:");
    const sw = Math.min(48, Math.max(...report.signals.map((r) => r.signal.length)));
    const aw2 = Math.max(...report.signals.map((r) => r.agent.length));
    for (const r of report.signals) lines.push(`    ${r.signal.padEnd(sw)}  ${r.agent.padEnd(aw2)}  ${r.says}`);
  }
  for (const w of report.warnings) lines.push(`  ! ${w}`);
  return lines.join("\n");
}
