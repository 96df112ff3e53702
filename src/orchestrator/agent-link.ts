import type { InitializeResponse } from "@agentclientprotocol/sdk";
import { AgentConnection, describeRpcError, type ClientHooks } from "../acp/agent-connection.js";
import { TraceWriter } from "../acp/trace-writer.js";
import { AgentProcess, type AgentExit } from "../agents/agent-process.js";
import type { ResolvedAgent } from "../agents/presets.js";

/** An error a user can meet while starting an agent, with the agent's own last words. */
export class AgentStartError extends Error {
  constructor(message: string, readonly stderrTail: string) {
    super(stderrTail ? `${message}\n--- last lines of the agent's stderr ---\n${stderrTail}` : message);
  }
}

/** Describes how an agent process ended, for a person. */
export function describeExit(exit: AgentExit): string {
  if (exit.signal) return `on ${exit.signal}`;
  return `with code ${exit.code ?? "?"}`;
}

/** What the orchestrator needs of a started agent; tests give it a scripted fake. */
export interface AgentPort {
  readonly init: InitializeResponse;
  readonly conn: Pick<
    AgentConnection,
    "newSession" | "loadSession" | "resumeSession" | "closeSession" | "prompt" | "cancel" | "setMode" | "setConfigOption" | "setModel" | "authenticate"
  >;
  readonly exited: Promise<AgentExit>;
  /** Set once the process has exited. */
  readonly exit?: AgentExit;
  stop(): Promise<unknown>;
  killNow(): void;
}

/** A started agent: its process, its ACP connection, and what it said in `initialize`. */
export class AgentLink implements AgentPort {
  private constructor(
    readonly proc: AgentProcess,
    readonly conn: AgentConnection,
    readonly init: InitializeResponse,
    private readonly trace?: TraceWriter,
  ) {}

  /** Spawns the agent and runs `initialize`; fails with the stderr tail if the agent dies first. */
  static async start(opts: { agent: ResolvedAgent; cwd: string; traceFile?: string; logFile?: string; terminals: boolean }, hooks: ClientHooks): Promise<AgentLink> {
    const trace = opts.traceFile ? new TraceWriter(opts.traceFile) : undefined;
    let proc: AgentProcess;
    try {
      proc = new AgentProcess(opts.agent.command, opts.cwd, opts.logFile);
    } catch (err) {
      throw new AgentStartError(`could not start agent ${opts.agent.name}: ${(err as Error).message}`, "");
    }
    const conn = new AgentConnection(proc.stdout, proc.stdin, hooks, { onMessage: (dir, msg) => trace?.message(dir, msg) });
    proc.exited.then((exit) => trace?.note(`agent process 1 exited ${describeExit(exit)}`));
    const died = proc.exited.then((exit) => {
      throw new AgentStartError(`agent ${opts.agent.name} exited ${describeExit(exit)} before it answered initialize`, exit.stderrTail);
    });
    try {
      const init = await Promise.race([conn.initialize({ terminals: opts.terminals }), died]);
      return new AgentLink(proc, conn, init, trace);
    } catch (err) {
      // A closed connection usually means the process is exiting: say how it ended, not "connection closed".
      await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 300))]);
      const exit = proc.exit;
      await proc.stop(100, 1000);
      trace?.close();
      if (err instanceof AgentStartError) throw err;
      if (exit) throw new AgentStartError(`agent ${opts.agent.name} exited ${describeExit(exit)} before it answered initialize`, exit.stderrTail);
      throw new AgentStartError(`agent ${opts.agent.name} failed to initialize: ${describeRpcError(err)}`, proc.stderrTail());
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

  /** Stops the agent and everything it started; no agent process outlives conch. */
  async stop(): Promise<AgentExit> {
    this.trace?.note("client closed the stdin of agent process 1");
    const exit = await this.proc.stop();
    this.conn.close();
    this.trace?.close();
    return exit;
  }
}
