import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import path from "node:path";
import { finished, type Readable } from "node:stream";
import { execa, type ResultPromise } from "execa";
import { Redactor } from "../acp/redact.js";
import { openPrivateFileSync } from "../store/private-fs.js";
import {
  newProcessTag,
  PROCESS_TAG_VAR,
  processRoot,
  signalProcessTree,
  terminateProcessTree,
  trackProcessTree,
  type ProcessRoot,
} from "../terminals/process-tree.js";
import { describeProcessTree, type ProcessInfo } from "../terminals/process-table.js";

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
  /** How it ended, for a person, when it is not a process exit (a remote agent's connection closed). */
  reason?: string;
}

const TAIL_LINES = 20;
/** A stderr "line" longer than this is logged in pieces rather than held whole. */
const MAX_LOG_LINE = 64 * 1024;
/**
 * Once the agent has exited, how long its pipes may still take to deliver what it wrote before
 * exiting. A grandchild that inherited them can keep them open forever; conch does not wait for it.
 */
const PIPE_DRAIN_MS = 250;

/**
 * A running agent process. It gets its own session and process group, and a tag in its
 * environment, so that stopping it also stops everything it started (Claude Code, shells, MCP
 * servers, daemons that left the group); its stderr goes to a log file and a short in-memory tail.
 */
export class AgentProcess {
  private readonly child: ResultPromise<{ stdin: "pipe"; stdout: "pipe"; stderr: "pipe"; detached: true; reject: false; buffer: false }>;
  private stderrLines: string[] = [];
  private partial = "";
  private stopping = false;
  private log?: WriteStream;
  /** Stderr not yet logged: the log is written a whole line at a time so no secret is split in two. */
  private logPartial = "";
  private readonly root?: ProcessRoot;
  private readonly forgetTree: () => void = () => undefined;
  readonly exited: Promise<AgentExit>;
  /** Resolves when the process itself has exited, before its pipes are drained (`exited` comes after). */
  readonly gone: Promise<void>;
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
    const tag = newProcessTag();
    this.child = execa(spec.command, spec.args, {
      cwd,
      env: agentEnv(spec.env, tag),
      extendEnv: true,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
      reject: false,
      buffer: false,
      cleanup: true,
    });
    if (this.child.pid) {
      this.root = processRoot(this.child.pid, tag);
      this.forgetTree = trackProcessTree(this.root);
    }
    this.child.stderr.on("data", (chunk: Buffer) => this.onStderr(chunk));
    this.gone = new Promise((resolve) => this.child.once("exit", () => resolve()));
    this.exited = new Promise((resolve) => {
      this.child.once("exit", (code, signal) => void this.drainPipes().then(() => resolve(this.finish(code, signal))));
      // execa settles without an exit when the program could not be started at all.
      this.child.then(
        (r) => {
          if (r.failed && r.exitCode === undefined && !r.signal) resolve(this.finish(null, null, r.shortMessage));
        },
        (err: Error) => resolve(this.finish(null, null, err.message)),
      );
    });
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

  /**
   * After the exit: lets the pipes deliver what the agent wrote before it exited, then closes them,
   * so a grandchild still holding them never keeps conch waiting (or alive).
   */
  private async drainPipes(): Promise<void> {
    const { stdout, stderr, stdin } = this.child;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([ended(stdout), ended(stderr)]),
      new Promise((resolve) => (timer = setTimeout(resolve, PIPE_DRAIN_MS))),
    ]);
    clearTimeout(timer);
    // What was read is handed to the connection in promise jobs: let them run before the pipe closes.
    await new Promise((resolve) => setImmediate(resolve));
    stdout.destroy();
    stderr.destroy();
    stdin.destroy();
  }

  private finish(code: number | null, signal: string | null, spawnError?: string): AgentExit {
    if (this.exit) return this.exit;
    if (spawnError) this.stderrLines.push(spawnError);
    this.exit = { code, signal, stderrTail: this.stderrTail(), expected: this.stopping };
    this.logStderr("", true);
    this.log?.end();
    return this.exit;
  }

  /**
   * Stops the agent: close stdin (some agents exit on EOF), then SIGTERM its whole tree (see
   * `collectProcessTree`: collected before the signal, so setsid'd daemons are found through
   * their parent), then SIGKILL what is left. codex-acp and claude-agent-acp 0.23.1 ignore EOF,
   * so the signals are not optional; and an agent that exited on its own may have left children.
   */
  async stop(graceMs = 300, killMs = 2000): Promise<AgentExit> {
    this.stopping = true;
    if (!this.exit) {
      this.child.stdin.end();
      await settlesWithin(this.exited, graceMs);
    }
    if (this.root) await terminateProcessTree(this.root, killMs);
    const exit = await this.exited;
    this.forgetTree();
    return exit;
  }

  /**
   * The agent's whole tree as the process table shows it now (Linux): the agent, what it runs, and
   * what it left behind (found by its tag). Empty when the table cannot be read.
   */
  processes(): ProcessInfo[] {
    return this.root ? describeProcessTree(this.root) : [];
  }

  /** Kills the agent and its tree at once, synchronously: for process exit paths. */
  killNow(): void {
    this.stopping = true;
    if (this.root) signalProcessTree(this.root, "SIGKILL");
  }
}

/** The agent's environment: conch's own, minus what conch set for itself, plus the agent's config. */
function agentEnv(extra: Record<string, string> | undefined, tag: string): Record<string, string | undefined> {
  const own = process.env.CONCH_DEFAULTED_NODE_ENV === "1" ? { NODE_ENV: undefined, CONCH_DEFAULTED_NODE_ENV: undefined } : {};
  // The tag last: a config cannot take the agent out of conch's reach by naming the variable.
  return { ...own, ...extra, [PROCESS_TAG_VAR]: tag };
}

/** Resolves when a stream has ended, closed or failed: nothing more will come out of it. */
function ended(stream: Readable): Promise<void> {
  return new Promise((resolve) => finished(stream, { writable: false }, () => resolve()));
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
