import type { InitializeResponse, McpServer } from "@agentclientprotocol/sdk";
import { AgentConnection, describeRpcError, type ClientHooks } from "../../acp/agent-connection.js";
import { Redactor, secretsPassedToAgent } from "../../acp/redact.js";
import { TraceWriter } from "../../acp/trace-writer.js";
import { AgentProcess, type AgentExit } from "../../agents/agent-process.js";
import { agentCalled, type ResolvedAgent } from "../../agents/presets.js";
import { ConchError } from "../../errors/conch-error.js";
import type { ProcessSnapshot } from "../../session/agent-processes.js";
import { processTableReadable } from "../../terminals/process-table.js";
import type { AgentPort } from "../ports.js";

/** An agent that did not start: the message says how, the agent's own last words (its stderr tail) are the detail. */
export class AgentStartError extends ConchError {
  constructor(message: string, stderrTail: string) {
    super("agent-start", message, stderrTail || undefined);
  }
}

/** How long an agent may take to answer `initialize` by default: opencode takes up to 5 s, npx installs longer. */
export const DEFAULT_START_TIMEOUT_MS = 60_000;

/** Describes how an agent process ended, for a person. */
export function describeExit(exit: AgentExit): string {
  if (exit.reason) return `(${exit.reason})`;
  if (exit.signal) return `on ${exit.signal}`;
  return `with code ${exit.code ?? "?"}`;
}

/** How a start ended early: the agent took too long, or conch is quitting. */
export class StartAbandoned extends Error {}

/** What starting an agent needs, wherever it runs. */
export interface AgentStartOptions {
  agent: ResolvedAgent;
  cwd: string;
  traceFile?: string;
  logFile?: string;
  terminals: boolean;
  /** The servers the session will pass: their secrets are kept out of the trace and log too. */
  mcpServers?: readonly McpServer[];
  startTimeoutMs?: number;
  signal?: AbortSignal;
  /** Which start of this run it is (1 first; `/restart` counts on): a later one's trace goes on in the same file. */
  attempt?: number;
}

/**
 * Rejects with StartAbandoned when the start takes longer than `startTimeoutMs` (0: no limit) or
 * `signal` aborts; `cleanup` clears the timer and the listener.
 */
export function startLimits(opts: AgentStartOptions, what: string): { abandoned: Promise<never>; cleanup: () => void } {
  const timeoutMs = opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const abandoned = new Promise<never>((_, reject) => {
    if (timeoutMs > 0)
      timer = setTimeout(
        () =>
          reject(
            new StartAbandoned(
              `${what} did not answer initialize within ${timeoutMs / 1000} s (a slow agent can be given longer: --start-timeout <s>, or ui.startTimeoutSeconds in the config)`,
            ),
          ),
        timeoutMs,
      );
    onAbort = () => reject(new StartAbandoned(`the start of ${what} was abandoned`));
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener("abort", onAbort, { once: true });
  });
  abandoned.catch(() => undefined);
  return {
    abandoned,
    cleanup: () => {
      clearTimeout(timer);
      if (onAbort) opts.signal?.removeEventListener("abort", onAbort);
    },
  };
}

/** A started agent: its process, its ACP connection, and what it said in `initialize`. */
export class AgentLink implements AgentPort {
  readonly runsLocally = true;

  private constructor(
    readonly proc: AgentProcess,
    readonly conn: AgentConnection,
    readonly init: InitializeResponse,
    private readonly attempt: number,
    private readonly trace?: TraceWriter,
  ) {}

  /**
   * Spawns the agent and runs `initialize`; fails with the stderr tail if the agent dies first or
   * does not answer within `startTimeoutMs`, and stops the agent if `signal` aborts meanwhile.
   * `mcpServers` are the servers the session will pass: their secrets are kept out of the trace and log too.
   */
  static async start(opts: AgentStartOptions, hooks: ClientHooks): Promise<AgentLink> {
    const redactor = new Redactor(secretsPassedToAgent(opts.agent.command.env, opts.mcpServers));
    const n = opts.attempt ?? 1;
    const onFailure = (message: string) => hooks.onNotice("warning", message);
    let trace: TraceWriter | undefined;
    try {
      trace = opts.traceFile ? new TraceWriter(opts.traceFile, redactor, onFailure, `agent process ${n} started`, n > 1) : undefined;
    } catch (err) {
      throw new AgentStartError(`could not open the trace file ${opts.traceFile}: ${(err as Error).message}`, "");
    }
    let proc: AgentProcess;
    try {
      proc = new AgentProcess(opts.agent.command, opts.cwd, opts.logFile, redactor, onFailure);
    } catch (err) {
      throw new AgentStartError(`could not start agent ${agentCalled(opts.agent)}: ${(err as Error).message}`, "");
    }
    const conn = new AgentConnection({ stdout: proc.stdout, stdin: proc.stdin, gone: proc.gone }, hooks, {
      onMessage: (dir, msg) => trace?.message(dir, msg),
      onMalformed: (line, error) => trace?.malformed(line, error),
    });
    proc.exited.then((exit) => trace?.note(`agent process ${n} exited ${describeExit(exit)}`));
    const died = proc.exited.then((exit) => {
      throw new AgentStartError(
        `agent ${agentCalled(opts.agent)} exited ${describeExit(exit)} before it answered initialize`,
        exit.stderrTail,
      );
    });
    const { abandoned, cleanup } = startLimits(opts, `agent ${agentCalled(opts.agent)}`);
    try {
      const init = await Promise.race([conn.initialize({ terminals: opts.terminals }), died, abandoned]);
      return new AgentLink(proc, conn, init, n, trace);
    } catch (err) {
      // A closed connection usually means the process is exiting: say how it ended, not "connection closed".
      if (!(err instanceof StartAbandoned)) await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 300))]);
      const exit = proc.exit;
      await proc.stop(100, 1000);
      trace?.close();
      if (err instanceof StartAbandoned) throw new AgentStartError(err.message, proc.stderrTail());
      if (err instanceof AgentStartError) throw err;
      if (exit)
        throw new AgentStartError(
          `agent ${agentCalled(opts.agent)} exited ${describeExit(exit)} before it answered initialize`,
          exit.stderrTail,
        );
      throw new AgentStartError(`agent ${agentCalled(opts.agent)} failed to initialize: ${describeRpcError(err)}`, proc.stderrTail());
    } finally {
      cleanup();
    }
  }

  get exited(): Promise<AgentExit> {
    return this.proc.exited;
  }
  get exit(): AgentExit | undefined {
    return this.proc.exit;
  }
  killNow(): void {
    this.proc.killNow();
  }
  processes(): ProcessSnapshot | undefined {
    const pid = this.proc.pid;
    if (pid === undefined || !processTableReadable()) return undefined;
    return { rootPid: pid, processes: this.proc.processes(), at: Date.now() };
  }
  flush(): Promise<void> {
    return this.conn.flush();
  }

  /** Stops the agent and everything it started; no agent process outlives conch. Calling it again waits for the same stop. */
  stop(): Promise<AgentExit> {
    this.stopping ??= (async () => {
      this.trace?.note(`client closed the stdin of agent process ${this.attempt}`);
      const exit = await this.proc.stop();
      this.conn.close();
      this.trace?.close();
      return exit;
    })();
    return this.stopping;
  }
  private stopping?: Promise<AgentExit>;
}
