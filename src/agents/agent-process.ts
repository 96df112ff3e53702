import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";
import { execa, type ResultPromise } from "execa";
import { Redactor } from "../acp/redact.js";
import { openPrivateFileSync } from "../store/private-fs.js";

/** How to start an agent: a program and its arguments, run in `cwd` with `env` added. */
export interface AgentCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** How an agent process ended. */
export interface AgentExit {
  code: number | null;
  signal: string | null;
  /** The last lines the agent wrote to stderr. */
  stderrTail: string;
  /** Set when conch stopped it on purpose. */
  expected: boolean;
}

const TAIL_LINES = 20;
/** A stderr "line" longer than this is logged in pieces rather than held whole. */
const MAX_LOG_LINE = 64 * 1024;

/**
 * A running agent process. It gets its own process group so that stopping it also stops what it
 * started (Claude Code, shells); its stderr goes to a log file and a short in-memory tail.
 */
export class AgentProcess {
  private readonly child: ResultPromise<{ stdin: "pipe"; stdout: "pipe"; stderr: "pipe"; detached: true; reject: false; buffer: false }>;
  private stderrLines: string[] = [];
  private partial = "";
  private stopping = false;
  private log?: WriteStream;
  /** Stderr not yet logged: the log is written a whole line at a time so no secret is split in two. */
  private logPartial = "";
  readonly exited: Promise<AgentExit>;
  exit?: AgentExit;

  /**
   * Starts `spec` in `cwd`. Its stderr is appended to `logFile` (0600) with secrets redacted by
   * `redactor`; `onLogFailure` hears once if the log cannot be written (the agent runs on).
   */
  constructor(
    readonly spec: AgentCommand,
    cwd: string,
    logFile?: string,
    private readonly redactor: Redactor = new Redactor(),
    private readonly onLogFailure: (message: string) => void = () => undefined,
  ) {
    if (logFile) this.openLog(logFile);
    this.child = execa(spec.command, spec.args, {
      cwd,
      env: agentEnv(spec.env),
      extendEnv: true,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
      reject: false,
      buffer: false,
      cleanup: true,
    });
    this.child.stderr.on("data", (chunk: Buffer) => this.onStderr(chunk));
    this.exited = this.child.then(
      (r) => this.finish(r.exitCode ?? null, r.signal ?? null, r.failed && r.exitCode === undefined && !r.signal ? r.shortMessage : undefined),
      (err: Error) => this.finish(null, null, err.message),
    );
    // Without these, a write to a dead agent throws EPIPE at the top level.
    this.child.stdin.on("error", () => undefined);
    this.child.stdout.on("error", () => undefined);
  }

  private openLog(logFile: string): void {
    const failed = (err: Error) => {
      this.log?.destroy();
      this.log = undefined;
      this.onLogFailure(`the agent's stderr log ${logFile} could not be written, so it stops here: ${err.message}`);
    };
    try {
      mkdirSync(path.dirname(logFile), { recursive: true, mode: 0o700 });
      // 0600 even for a log an older conch left readable.
      this.log = createWriteStream("", { fd: openPrivateFileSync(logFile, "a") });
      this.log.on("error", failed);
    } catch (err) {
      failed(err as Error);
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }
  get stdout() {
    return this.child.stdout;
  }
  get stdin() {
    return this.child.stdin;
  }

  private onStderr(chunk: Buffer): void {
    this.logStderr(chunk.toString("utf8"));
    const text = this.partial + chunk.toString("utf8");
    const lines = text.split("\n");
    this.partial = lines.pop() ?? "";
    this.stderrLines.push(...lines);
    if (this.stderrLines.length > TAIL_LINES * 4) this.stderrLines = this.stderrLines.slice(-TAIL_LINES);
  }

  /** The log is read by people and attached to bug reports: no tokens in it, even split across chunks. */
  private logStderr(text: string, final = false): void {
    if (!this.log) return;
    const pending = this.logPartial + text;
    const cut = final || pending.length > MAX_LOG_LINE ? pending.length : pending.lastIndexOf("\n") + 1;
    this.logPartial = pending.slice(cut);
    if (cut > 0) this.log.write(this.redactor.text(pending.slice(0, cut)));
  }

  /**
   * The last lines of the agent's stderr, for error messages, redacted like the log: the same text
   * is recorded in the session log (`agent_exited`) and in print mode's JSON result.
   */
  stderrTail(lines = TAIL_LINES): string {
    const all = this.partial ? [...this.stderrLines, this.partial] : this.stderrLines;
    return this.redactor.text(all.slice(-lines).join("\n").trimEnd());
  }

  private finish(code: number | null, signal: string | null, spawnError?: string): AgentExit {
    if (spawnError) this.stderrLines.push(spawnError);
    this.exit = { code, signal, stderrTail: this.stderrTail(), expected: this.stopping };
    this.logStderr("", true);
    this.log?.end();
    return this.exit;
  }

  private signalGroup(sig: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (!pid) return;
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  }

  /**
   * Stops the agent: close stdin (some agents exit on EOF), then SIGTERM the whole process group,
   * then SIGKILL. codex-acp and claude-agent-acp 0.23.1 ignore EOF, so the signals are not optional.
   */
  async stop(graceMs = 300, killMs = 2000): Promise<AgentExit> {
    this.stopping = true;
    if (this.exit) {
      // The agent is gone but what it started may not be.
      this.signalGroup("SIGTERM");
      return this.exit;
    }
    this.child.stdin.end();
    if (await settlesWithin(this.exited, graceMs)) {
      this.signalGroup("SIGTERM");
      return this.exited;
    }
    this.signalGroup("SIGTERM");
    if (!(await settlesWithin(this.exited, killMs))) this.signalGroup("SIGKILL");
    const exit = await this.exited;
    // Children that ignored SIGTERM outlive their parent in the same group.
    this.signalGroup("SIGKILL");
    return exit;
  }

  /** Kills the process group at once, synchronously: for process exit paths. */
  killNow(): void {
    this.stopping = true;
    this.signalGroup("SIGKILL");
  }
}

/** The agent's environment: conch's own, minus what conch set for itself, plus the agent's config. */
function agentEnv(extra: Record<string, string> | undefined): Record<string, string | undefined> {
  const own = process.env.CONCH_DEFAULTED_NODE_ENV === "1" ? { NODE_ENV: undefined, CONCH_DEFAULTED_NODE_ENV: undefined } : {};
  return { ...own, ...extra };
}

function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    p.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
