import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AvailableCommand, InitializeResponse, McpServer, NewSessionResponse, SessionConfigOption } from "@agentclientprotocol/sdk";
import { advertisesSteering, describeRpcError } from "../acp/agent-connection.js";
import { planAuth } from "../agents/auth-methods.js";
import type { ResolvedAgent } from "../agents/presets.js";
import { AgentLink } from "../orchestrator/agent-link.js";
import { isAuthRequired, readModels, usableMcpServers } from "../orchestrator/session-response.js";
import { safeLine } from "../text/terminal-safe.js";

/** One line of a probe: what the agent says about one capability, and what conch does with it. */
export interface ProbeRow {
  capability: string;
  advertised: string;
  conch: string;
}

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
  warnings: string[];
  /** The whole `initialize` result and `session/new` answer, for `--json`. */
  initialize?: InitializeResponse;
  newSession?: NewSessionResponse;
}

/** How long `session/new` and `session/close` may take before the probe gives up on them (opencode takes seconds). */
const SESSION_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 5_000;

const yes = (v: unknown) => (v === undefined || v === null || v === false ? "no" : "yes");

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function optionValues(o: SessionConfigOption): string {
  const r = o as SessionConfigOption & { options?: unknown };
  if (o.type !== "select" || !Array.isArray(r.options)) return String(o.currentValue);
  const values = (r.options as unknown[]).flatMap((x) => {
    const g = record(x);
    if (!g) return [];
    // Options may come grouped: { group, options: [...] }.
    if (Array.isArray(g.options)) return (g.options as unknown[]).map((y) => String(record(y)?.value ?? "?"));
    return [String(g.value ?? "?")];
  });
  return values.map((v) => (v === String(o.currentValue) ? `${v}*` : v)).join(", ");
}

/**
 * The probe's table: each capability the agent advertises in `initialize` (and what `session/new`
 * offers), next to what conch does with it. Pure, so it can be checked against recorded traces.
 */
export function probeRows(init: InitializeResponse, session?: NewSessionResponse, commands: readonly AvailableCommand[] = []): ProbeRow[] {
  const caps = init.agentCapabilities ?? {};
  const sc = (caps.sessionCapabilities ?? {}) as Record<string, unknown>;
  const prompt = caps.promptCapabilities ?? {};
  const mcp = caps.mcpCapabilities ?? {};
  const rows: ProbeRow[] = [
    {
      capability: "session/load",
      advertised: yes(caps.loadSession),
      conch: caps.loadSession ? "--resume opens the session with its history replayed" : "--resume shows conch's own log instead",
    },
    {
      capability: "session/resume",
      advertised: yes(sc.resume),
      conch: sc.resume
        ? caps.loadSession
          ? "/restart after a failure continues without a replay"
          : "--resume and /restart continue the session (no replay)"
        : "-",
    },
    {
      capability: "session/list",
      advertised: yes(sc.list),
      conch: sc.list ? "conch sessions --agent lists the agent's sessions too" : "-",
    },
    {
      capability: "session/close",
      advertised: yes(sc.close),
      conch: sc.close ? "quitting closes the session at the agent" : "quitting only stops the agent",
    },
    {
      capability: "session/fork",
      advertised: yes(sc.fork),
      conch: sc.fork ? "/fork goes on in a new session from this one's history" : "-",
    },
    {
      capability: "session/delete",
      advertised: yes(sc.delete),
      conch: sc.delete
        ? "conch sessions delete <id> deletes it at the agent too"
        : "conch sessions delete <id> deletes conch's record only",
    },
    {
      capability: "steering",
      advertised: yes(advertisesSteering(init)),
      conch: advertisesSteering(init)
        ? "Ctrl-S sends a message into the running turn (_session/steering)"
        : "Ctrl-S queues the message: it is sent when the turn ends",
    },
    {
      capability: "mcp transports",
      advertised: ["stdio", mcp.http ? "http" : "", mcp.sse ? "sse" : ""].filter(Boolean).join(", "),
      conch: "passes the configured MCP servers of these transports",
    },
    {
      capability: "elicitation",
      advertised: "asked when needed (a client capability)",
      conch: "offers form and url questions; a form shows above the input",
    },
    {
      capability: "prompt content",
      advertised: ["text", prompt.image ? "image" : "", prompt.audio ? "audio" : "", prompt.embeddedContext ? "embedded context" : ""]
        .filter(Boolean)
        .join(", "),
      conch: prompt.image
        ? "text; @files as resource links; images (@file, pasted) as image blocks"
        : "text; @files as resource links (images too: the agent takes none)",
    },
  ];
  const auth = init.authMethods ?? [];
  const plans = auth.map((m) => planAuth(m, { command: "agent", args: [] }));
  rows.push({
    capability: "auth methods",
    advertised: auth.length
      ? auth
          .map(
            (m, i) => `${safeLine(m.id)} (${plans[i].kind === "agent" ? "agent" : plans[i].kind === "env_var" ? "env var" : "terminal"})`,
          )
          .join(", ")
      : "none",
    conch: auth.length ? "offered when session/new asks for a login: terminal logins run in a pane, env vars are named" : "-",
  });
  rows.push({
    capability: "logout",
    advertised: yes(record(caps.auth)?.logout),
    conch: record(caps.auth)?.logout ? "/logout logs out of the agent" : "-",
  });
  rows.push({
    capability: "more directories",
    advertised: yes(sc.additionalDirectories),
    conch: sc.additionalDirectories ? "--add-dir folders go with the session" : "-",
  });
  if (session) {
    const modes = session.modes?.availableModes ?? [];
    rows.push({
      capability: "modes",
      advertised: modes.length
        ? modes.map((m) => (m.id === session.modes?.currentModeId ? `${safeLine(m.id)}*` : safeLine(m.id))).join(", ")
        : "none",
      conch: modes.length ? "Shift+Tab and /mode switch them" : "-",
    });
    const models = readModels(session);
    rows.push({
      capability: "models",
      advertised: models
        ? models.availableModels
            .map((m) => (m.modelId === models.currentModelId ? `${safeLine(m.modelId)}*` : safeLine(m.modelId)))
            .join(", ")
        : "none",
      conch: models ? "/model switches them (session/set_model)" : "-",
    });
    const options = session.configOptions ?? [];
    for (const o of options) {
      const backs = o.category === "model" ? " (backs /model)" : o.category === "mode" ? " (backs /mode and Shift+Tab)" : "";
      rows.push({
        capability: `option ${safeLine(o.id)}`,
        advertised: safeLine(optionValues(o)),
        conch: `/config ${safeLine(o.id)} <value>${backs}`,
      });
    }
    if (!options.length) rows.push({ capability: "config options", advertised: "none", conch: "-" });
  }
  if (commands.length)
    rows.push({
      capability: "slash commands",
      advertised: commands.map((c) => `/${safeLine(c.name)}`).join(" "),
      conch: "in the / menu, sent as prompts",
    });
  const extra = Object.keys(record(caps._meta) ?? {});
  if (extra.length) rows.push({ capability: "capability _meta", advertised: extra.map(safeLine).join(", "), conch: "-" });
  return rows;
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
  const report: ProbeReport = { name: agent.name, command, ok: false, rows: [], warnings: [] };
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
  for (const w of report.warnings) lines.push(`  ! ${w}`);
  return lines.join("\n");
}
