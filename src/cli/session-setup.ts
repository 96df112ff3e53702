import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { loadConfig, mcpServersFor, UntrustedProjectError, type ConchConfig } from "../agents/config-file.js";
import { rememberTrust, type ProjectFile, type TrustChoice } from "../agents/workspace-trust.js";
import { ConchError } from "../errors/conch-error.js";
import { safeLine } from "../text/terminal-safe.js";
import { PRESETS, remoteAgentOf, resolveAgent, which, type ResolvedAgent } from "../agents/presets.js";
import { Orchestrator, type OpenMode } from "../orchestrator/orchestrator.js";
import type { PermissionPolicy } from "../orchestrator/permission-policy.js";
import { SessionRecorder } from "../orchestrator/record/session-recorder.js";
import type { TurnTiming } from "../session/quiet-period.js";
import { RegistryTerminalService } from "../orchestrator/terminals/terminal-service.js";
import { cardPaneSize } from "../ui/render/card-pane.js";
import { findSession, latestInCwd, type SessionRecord } from "../store/session-index.js";
import { acquireSessionLock } from "../store/session-lock.js";
import { PreImageStore } from "../store/pre-image-store.js";
import { RememberedRules } from "../store/remembered-rules.js";
import { WorkspaceCheckpoints } from "../store/checkpoint-store.js";
import { realPathOf } from "../orchestrator/rules/call-facts.js";
import { parseRuleEntries, RuleBook } from "../orchestrator/rules/rule-book.js";
import { checkSessionLog } from "../store/session-log.js";
import type { OrchestratorOptions } from "../orchestrator/orchestrator-options.js";
import { agentLogPath, ensureStateDir, resolveStateDir, sessionLogPath } from "../store/state-dir.js";
import type { SessionOptions } from "./parse-args.js";
import { UsageError } from "./parse-args.js";
import { registryAgents } from "./registry.js";
import { afterInput } from "../ui/tty/after-input.js";
import { readResumedLog } from "./resumed-log.js";

/** A session that cannot be found: exit code 4. */
export class SessionNotFoundError extends ConchError {
  constructor(message: string) {
    super("session-not-found", message);
  }
}

/** A session another conch process has open: refused (exit 1), since two writers would lose turns. */
export class SessionBusyError extends ConchError {
  constructor(message: string) {
    super("session-busy", message);
  }
}

/** The agent used when none is named: the config's default, else the first preset installed on PATH, else the demo. */
export function defaultAgentName(config?: ConchConfig): string {
  if (config?.defaultAgent) return config.defaultAgent;
  for (const p of PRESETS) if (p.bin && which(p.bin)) return p.name;
  return "demo";
}

/** The stored session an id or unique prefix names; a SessionNotFoundError (exit 4) says why not. */
export async function findStoredSession(query: string): Promise<SessionRecord> {
  const found = await findSession(query);
  if ("match" in found) return found.match;
  if ("ambiguous" in found) {
    throw new SessionNotFoundError(`session id "${query}" is ambiguous: ${found.ambiguous.map((r) => r.id).join(", ")}`);
  }
  const closest = found.closest.map((r) => `  ${r.id}  ${safeLine(r.title ?? "")}`).join("\n");
  throw new SessionNotFoundError(`no session ${query}${closest ? `\nclosest matches:\n${closest}` : ""}`);
}

/** Finds the session `--resume` or `--continue` points at. */
async function findResumeTarget(opts: SessionOptions): Promise<SessionRecord | undefined> {
  if (opts.resume) return findStoredSession(opts.resume);
  if (opts.continue) {
    const rec = await latestInCwd(path.resolve(opts.cwd));
    if (!rec) throw new SessionNotFoundError(`no session to continue in ${path.resolve(opts.cwd)}`);
    return rec;
  }
  return undefined;
}

/** Everything needed to run a session: the orchestrator, how to open it, and its recorder. */
export interface PreparedSession {
  orchestrator: Orchestrator;
  recorder: SessionRecorder;
  agent: ResolvedAgent;
  /** The session's working directory, resolved (a resumed session's own). */
  cwd: string;
  mode: OpenMode;
  resumed?: SessionRecord;
  config: ConchConfig;
}

/** Asks the person whether to trust a project's `.conch.json` (the TUI does, before the agent starts). */
export type AskTrust = (project: ProjectFile) => Promise<TrustChoice>;

/**
 * The config for `cwd`. An untrusted project that sets what runs is put to the person when
 * `askTrust` is given (trusting it is remembered), and refused with an UntrustedProjectError when not.
 */
export async function trustedConfig(cwd: string, trust: boolean | undefined, askTrust?: AskTrust): Promise<ConchConfig> {
  for (;;) {
    try {
      return loadConfig(cwd, process.env, { trust });
    } catch (err) {
      if (!(err instanceof UntrustedProjectError) || !askTrust) throw err;
      const choice = await askTrust(err.project);
      if (choice === "quit") throw new UsageError(`nothing was run: ${safeLine(err.project.file)} is not trusted`);
      if (choice === "leave-out") return loadConfig(cwd, process.env, { untrusted: "leave-out" });
      // Trust goes to the content the person saw: if the file changed meanwhile, the loop asks again.
      rememberTrust(err.project);
    }
  }
}

/** The size of a command's pane on this terminal, while it is one. */
function paneSize(): { cols: number; rows: number } | undefined {
  return process.stdout.isTTY && process.stdout.columns ? cardPaneSize(process.stdout.columns) : undefined;
}

/**
 * Resolves the agent, the cwd and a resume target, and builds the session's orchestrator. The
 * config is read here unless given, through the trust gate (`askTrust`: see `trustedConfig`). A
 * resumed log is read while the agent starts (the orchestrator's `start`), not before `historyAfter` (the TUI's first frame).
 */
export async function prepareSession(
  opts: SessionOptions,
  policy: PermissionPolicy,
  config?: ConchConfig,
  askTrust?: AskTrust,
  historyAfter?: Promise<unknown>,
): Promise<PreparedSession> {
  const resumed = await findResumeTarget(opts);
  const cwd = path.resolve(resumed?.cwd ?? opts.cwd);
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new UsageError(`--cwd ${cwd} is not a directory`);
  config ??= await trustedConfig(cwd, opts.trust, askTrust);
  let agent: ResolvedAgent;
  if (resumed && !opts.agent) {
    if (PRESETS.some((p) => p.name === resumed.agent) || config.agents[resumed.agent]) agent = resolveAgent(resumed.agent, config.agents);
    else if (resumed.agentCommand.length === 1 && remoteAgentOf(resumed.agentCommand[0])) agent = resolveAgent(resumed.agentCommand[0]);
    else if (resumed.agentCommand.length > 0)
      agent = { name: resumed.agent, command: { command: resumed.agentCommand[0], args: resumed.agentCommand.slice(1) }, via: "command" };
    // A record rebuilt from its log knows the agent's name, not its command line.
    else
      throw new UsageError(
        `session ${resumed.id} was run with agent "${resumed.agent}", whose command is not recorded: resume it with --agent <command>`,
      );
  } else {
    agent = resolveAgent(opts.agent ?? defaultAgentName(config), config.agents, undefined, registryAgents());
  }
  // Before anything starts: a rule that does not parse stops here, naming its file and line.
  const rules = new RuleBook(parseRuleEntries(config.ruleEntries ?? []), new RememberedRules(resolveStateDir()), realPathOf(cwd));
  const additionalDirectories = checkedDirectories([...(opts.addDirs ?? []), ...config.additionalDirectories], cwd);
  const root = ensureStateDir();
  let lock: { id: string; release: () => void } | undefined;
  let loadHistory: OrchestratorOptions["loadHistory"];
  if (resumed) {
    // Before the agent starts: a second conch on one session would silently lose one side's turns.
    const taken = acquireSessionLock(resumed.id, root);
    if (!taken.ok) {
      throw new SessionBusyError(
        `session ${resumed.id} is open in another conch (pid ${taken.heldByPid ?? "?"}): close it there, or start a new session`,
      );
    }
    lock = { id: resumed.id, release: taken.release };
    const file = sessionLogPath(resumed.id, root);
    try {
      // What would stop the resume (no log, a newer format) stops it here, before anything starts.
      checkSessionLog(file);
    } catch (err) {
      taken.release();
      throw err;
    }
    // Read and folded while the agent starts: a long log takes seconds, and the UI (`historyAfter`:
    // its first frame) is up and taking keys meanwhile.
    loadHistory = async (replayed) => {
      await historyAfter;
      // The App's first frame was drawn in this task: keys typed meanwhile are read before the first chunk.
      await afterInput();
      return readResumedLog(file, replayed);
    };
  }
  const recorder = new SessionRecorder({
    agent: agent.name,
    namedByAgent: agent.via === "command",
    agentCommand: [agent.command.command, ...agent.command.args],
    cwd,
    root,
    lock,
  });
  const orchestrator = new Orchestrator({
    agent,
    cwd,
    policy,
    timing: timingFor(opts, config),
    mcpServers: mcpServersFor(config),
    additionalDirectories,
    traceFile: opts.trace,
    logFile: agentLogPath(`${agent.name}-${process.pid}`, root),
    sink: recorder,
    loadHistory,
    startTimeoutMs: opts.startTimeoutMs ?? (config.ui.startTimeoutSeconds !== undefined ? config.ui.startTimeoutSeconds * 1000 : undefined),
    // In the TUI a command starts at its pane's width: output it prints before the pane is first
    // drawn (and resized) would be laid out for 80 columns and stay so in the scrollback and log.
    terminals: (emit, root) => new RegistryTerminalService(emit, root, askTrust ? paneSize : undefined),
    preImages: new PreImageStore(root),
    rules,
    interactive: askTrust !== undefined,
    // Print mode reads the newest state only; the TUI's renders keep older ones.
    newestStateOnly: askTrust === undefined,
    checkpoints: config.checkpoints === false ? undefined : new WorkspaceCheckpoints(realPathOf(cwd), root),
  });
  recorder.attach(
    () => orchestrator.state,
    (level, text) => orchestrator.dispatch({ type: "notice", level, text }),
  );
  if (rules.problem) orchestrator.dispatch({ type: "notice", level: "warning", text: rules.problem });
  const mode: OpenMode = resumed ? { kind: "reopen", sessionId: resumed.id } : { kind: "new" };
  return { orchestrator, recorder, agent, cwd, mode, resumed, config };
}

/** The additional directories, each an existing folder, once each, the cwd itself left out. */
function checkedDirectories(dirs: string[], cwd: string): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--add-dir ${dir} is not a directory`);
    if (dir !== cwd && !out.includes(dir)) out.push(dir);
  }
  return out;
}

function timingFor(opts: SessionOptions, config: ConchConfig): Partial<TurnTiming> {
  const stallMs = opts.stallTimeoutMs ?? (config.ui.stallTimeoutSeconds !== undefined ? config.ui.stallTimeoutSeconds * 1000 : undefined);
  const timing: Partial<TurnTiming> = {
    quietMs: opts.quietMs ?? config.ui.quietMs,
    backgroundQuietMs: opts.backgroundQuietMs ?? config.ui.backgroundQuietMs,
    stallMs,
  };
  for (const key of Object.keys(timing) as (keyof TurnTiming)[]) if (timing[key] === undefined) delete timing[key];
  return timing;
}
