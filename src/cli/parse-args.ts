import path from "node:path";
import { parseArgs } from "node:util";
import { ConchError } from "../errors/conch-error.js";
import { PERMISSION_POLICIES, type PermissionPolicy } from "../orchestrator/permission-policy.js";
import { OUTPUT_FORMATS, type OutputFormat } from "../print/output-format.js";

/** Options shared by the interactive UI and print mode. */
export interface SessionOptions {
  agent?: string;
  cwd: string;
  permissions?: PermissionPolicy;
  trace?: string;
  resume?: string;
  continue: boolean;
  quietMs?: number;
  backgroundQuietMs?: number;
  stallTimeoutMs?: number;
  /** How long the agent may take to answer `initialize`. */
  startTimeoutMs?: number;
  /** `--trust`: apply the project's `.conch.json` for this run even if its folder is not trusted. */
  trust?: boolean;
  /** `--add-dir`: directories besides the cwd the session may use (absolute). */
  addDirs?: string[];
}

/** What argv asks conch to do. */
export type Command =
  | { kind: "help" }
  | { kind: "version" }
  | ({ kind: "interactive"; prompt?: string; notify: boolean } & SessionOptions)
  | ({ kind: "print"; prompt?: string; outputFormat: OutputFormat; timeoutMs?: number; mode?: string; model?: string } & SessionOptions)
  | { kind: "sessions"; action: "list" | "delete"; id?: string; json: boolean; cwd?: string; all: boolean; agent?: string }
  | { kind: "agents"; json: boolean; probe: boolean; name?: string; agent?: string; registry?: boolean; refresh?: boolean }
  | { kind: "export"; id: string; output?: string; force: boolean }
  | { kind: "attach"; id: string; write: boolean }
  | { kind: "undo"; id: string; turn?: string; dryRun: boolean }
  | { kind: "doctor"; agent?: string; json: boolean };

/** A usage error: printed as one line that points to `conch --help`, exit code 2. */
export class UsageError extends ConchError {
  constructor(message: string) {
    super("usage", message);
  }
}

export const USAGE = `Usage:
  conch [options] [prompt]            interactive session (the TUI)
  conch -p [options] [prompt]         print mode: run one prompt headless, answer on stdout
  conch sessions [--json] [--all]     list sessions (this directory's first); with --agent,
                                      merged with that agent's own session/list
  conch sessions delete <id>          delete a session's local record (and at its agent)
  conch agents [--json]               list agent presets and whether each is installed
  conch agents --probe [name]         start each agent (or one; --agent <command> for any) and show
                                      what it advertises next to what conch will use
  conch agents --registry [--refresh] the ACP registry's agents (--agent <id> runs one) and how old
                                      conch's copy is; --refresh fetches the latest over https
  conch export <id> [-o file]         a stored session as Markdown (stdout, or a new file; --force replaces)
  conch undo <id> [turn] [--dry-run]  put back what a session's last turn (or turn N) changed in its files
  conch attach <id>                   follow a session another conch is running, read-only
  conch attach --write <id>           the same, and act in it: answer, queue, steer, cancel (same keys)
  conch doctor [--agent <agent>]      check Node, node-pty, the terminal, agents, the state dir

Options:
  -a, --agent <name|command>    agent preset (demo, claude, codex, gemini, opencode, goose), an ACP
                                registry id (conch agents --registry lists them), or a command line,
                                e.g. "npx -y @agentclientprotocol/claude-agent-acp"
  -a, --agent ws://host:port    a remote agent over WebSocket (wss:// too), or http(s)://… over streamable HTTP
  -C, --cwd <dir>               the session's working directory (default: current directory)
      --add-dir <dir>           another directory the agent may use besides the cwd (repeatable)
  -p, --print                   print mode; the prompt comes from the arguments and/or stdin
      --output-format <fmt>     print mode output: text (default), json, stream-json
      --permissions <policy>    ask, deny, approve-reads, approve-all
                                (print mode default: deny when stdin is not a TTY)
      --timeout <seconds>       print mode: give up after this long (exit 3)
      --mode <id>               print mode: switch the agent to this mode first (session/set_mode)
      --model <id>              print mode: switch the agent to this model first
  -r, --resume <id>             resume a session by id (a unique prefix is enough)
  -c, --continue                resume the most recent session in this directory
      --trace <file>            record every JSON-RPC message as JSON lines
      --quiet-ms <ms>           for agents that give no turn signal: quiet that ends a turn (default 500)
      --background-quiet-ms <ms>  the same after background work ended (default 5000)
      --stall-timeout <s>       report a silent tool call as stalled after this long (default 120)
      --start-timeout <s>       give up on an agent that has not answered initialize after this long
                                (default 60; 0: no limit)
      --trust                   apply this folder's .conch.json for this run, even the settings that choose
                                what runs, without asking (for scripts; see "Workspace trust" in the README)
      --no-notify               no bell or desktop notification when a turn ends
      --json                    machine-readable output for sessions/agents/doctor
  -o, --output <file>           export: write the Markdown to this file (never replaced without --force)
  -h, --help                    show this help
  -v, --version                 show the version

Exit codes (print mode): 0 ok, 1 agent or runtime error, 2 usage error, 3 timeout,
  4 session not found, 5 permission refused by policy, 6 refusal, 7 max tokens/turn requests,
  8 the session log could not be written whole, 130 interrupted.`;

function num(name: string, value: string | undefined, scale = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--${name} needs a number, got "${value}"`);
  return n * scale;
}

/** Parses argv (without node and the script) into a Command, or throws a UsageError. */
export function parseCommandLine(argv: string[], cwd = process.cwd()): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        agent: { type: "string", short: "a" },
        cwd: { type: "string", short: "C" },
        "add-dir": { type: "string", multiple: true },
        print: { type: "boolean", short: "p" },
        "output-format": { type: "string" },
        permissions: { type: "string" },
        timeout: { type: "string" },
        mode: { type: "string" },
        model: { type: "string" },
        resume: { type: "string", short: "r" },
        continue: { type: "boolean", short: "c" },
        trace: { type: "string" },
        "quiet-ms": { type: "string" },
        "background-quiet-ms": { type: "string" },
        "stall-timeout": { type: "string" },
        "start-timeout": { type: "string" },
        trust: { type: "boolean" },
        notify: { type: "boolean" },
        "no-notify": { type: "boolean" },
        json: { type: "boolean" },
        all: { type: "boolean" },
        probe: { type: "boolean" },
        registry: { type: "boolean" },
        refresh: { type: "boolean" },
        output: { type: "string", short: "o" },
        force: { type: "boolean" },
        write: { type: "boolean" },
        "dry-run": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const v = parsed.values;
  const pos = parsed.positionals;
  if (v.help) return { kind: "help" };
  if (v.version) return { kind: "version" };

  if (v.probe && (pos[0] !== "agents" || v.print)) throw new UsageError("--probe goes with `conch agents`");
  if ((v.registry || v.refresh) && (pos[0] !== "agents" || v.print))
    throw new UsageError("--registry and --refresh go with `conch agents`");
  if (v.refresh && !v.registry) throw new UsageError("--refresh goes with `conch agents --registry`");
  if (v.registry && v.probe) throw new UsageError("--registry lists the registry; to probe one of its agents: conch agents --probe <id>");
  if ((v.output !== undefined || v.force) && (pos[0] !== "export" || v.print))
    throw new UsageError("--output and --force go with `conch export`");
  if (v.write && (pos[0] !== "attach" || v.print)) throw new UsageError("--write goes with `conch attach`");
  if (pos[0] === "sessions" && !v.print) {
    const action = pos[1] === "delete" || pos[1] === "rm" ? "delete" : "list";
    if (pos[1] && pos[1] !== "list" && action !== "delete") throw new UsageError(`unknown sessions command: ${pos[1]}`);
    if (action === "delete" && !pos[2]) throw new UsageError("sessions delete needs a session id");
    return { kind: "sessions", action, id: pos[2], json: !!v.json, cwd: v.cwd ?? cwd, all: !!v.all, agent: v.agent };
  }
  if (pos[0] === "agents" && !v.print) {
    if (!v.probe && pos.length > 1)
      throw new UsageError(`unexpected argument: ${pos[1]} (to probe one agent: conch agents --probe ${pos[1]})`);
    if (v.probe && pos.length > 2) throw new UsageError("--probe takes one agent name (or --agent <command>)");
    if (v.probe && pos[1] && v.agent) throw new UsageError("name the agent to probe once: a preset name or --agent <command>");
    if (v.registry && pos.length > 1) throw new UsageError(`unexpected argument: ${pos[1]}`);
    return {
      kind: "agents",
      json: !!v.json,
      probe: !!v.probe,
      name: pos[1],
      agent: v.agent,
      ...(v.registry ? { registry: true, refresh: !!v.refresh } : {}),
    };
  }
  if (pos[0] === "export" && !v.print) {
    if (!pos[1]) throw new UsageError("export needs a session id (conch sessions lists them)");
    if (pos.length > 2) throw new UsageError(`unexpected argument: ${pos[2]}`);
    if (v.output !== undefined && v.output.trim() === "") throw new UsageError("--output needs a file name");
    return { kind: "export", id: pos[1], output: v.output, force: !!v.force };
  }
  if (v["dry-run"] && (pos[0] !== "undo" || v.print)) throw new UsageError("--dry-run goes with `conch undo`");
  if (pos[0] === "undo" && !v.print) {
    if (!pos[1]) throw new UsageError("undo needs a session id (conch sessions lists them)");
    if (pos.length > 3) throw new UsageError(`unexpected argument: ${pos[3]}`);
    return { kind: "undo", id: pos[1], turn: pos[2], dryRun: !!v["dry-run"] };
  }
  if (pos[0] === "attach" && !v.print) {
    if (!pos[1]) throw new UsageError("attach needs a session id (conch sessions lists them)");
    if (pos.length > 2) throw new UsageError(`unexpected argument: ${pos[2]}`);
    return { kind: "attach", id: pos[1], write: !!v.write };
  }
  if (pos[0] === "doctor" && !v.print) return { kind: "doctor", agent: v.agent, json: !!v.json };

  const format = v["output-format"] ?? "text";
  if (!OUTPUT_FORMATS.includes(format as OutputFormat))
    throw new UsageError(`--output-format must be text, json or stream-json, got "${format}"`);
  if (v.permissions && !PERMISSION_POLICIES.includes(v.permissions as PermissionPolicy)) {
    throw new UsageError(`--permissions must be one of ${PERMISSION_POLICIES.join(", ")}, got "${v.permissions}"`);
  }
  if (v.resume !== undefined && v.resume.trim() === "") throw new UsageError("--resume needs a session id");
  if (v.resume && v.continue) throw new UsageError("--resume and --continue cannot be used together");
  for (const flag of ["output-format", "timeout", "mode", "model"] as const) {
    if (!v.print && v[flag] !== undefined)
      throw new UsageError(`--${flag} only applies to print mode (-p); in the UI use /mode and /model`);
  }
  const session: SessionOptions = {
    agent: v.agent,
    cwd: v.cwd ?? cwd,
    permissions: v.permissions as PermissionPolicy | undefined,
    trace: v.trace,
    resume: v.resume,
    continue: !!v.continue,
    quietMs: num("quiet-ms", v["quiet-ms"]),
    backgroundQuietMs: num("background-quiet-ms", v["background-quiet-ms"]),
    stallTimeoutMs: num("stall-timeout", v["stall-timeout"], 1000),
    startTimeoutMs: num("start-timeout", v["start-timeout"], 1000),
    trust: v.trust,
    addDirs: v["add-dir"]?.map((d) => path.resolve(cwd, d)),
  };
  const prompt = pos.length ? pos.join(" ") : undefined;
  if (v.print)
    return {
      kind: "print",
      prompt,
      outputFormat: format as OutputFormat,
      timeoutMs: num("timeout", v.timeout, 1000),
      mode: v.mode,
      model: v.model,
      ...session,
    };
  return { kind: "interactive", prompt, notify: !v["no-notify"] && v.notify !== false, ...session };
}
