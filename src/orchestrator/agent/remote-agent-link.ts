import type { InitializeResponse, Stream } from "@agentclientprotocol/sdk";
import { createHttpStream } from "@agentclientprotocol/sdk/experimental/http-client";
import { createWebSocketStream, type WebSocketConstructor } from "@agentclientprotocol/sdk/experimental/ws-client";
import { WebSocket } from "ws";
import { AgentConnection, describeRpcError, type ClientHooks } from "../../acp/agent-connection.js";
import { Redactor, secretsPassedToAgent } from "../../acp/redact.js";
import { TraceWriter } from "../../acp/trace-writer.js";
import type { AgentExit } from "../../agents/agent-process.js";
import type { AgentPort } from "../ports.js";
import { AgentStartError, StartAbandoned, startLimits, type AgentStartOptions } from "./agent-link.js";

/** The SDK's experimental client transport for the agent's URL: WebSocket for ws(s)://, streamable HTTP for http(s)://. */
function openStream(url: string, transport: "ws" | "http"): Stream {
  // Node 20 has no global WebSocket: the `ws` package's has the shape the SDK takes (and sends headers).
  if (transport === "ws") return createWebSocketStream(url, { WebSocket: WebSocket as unknown as WebSocketConstructor });
  return createHttpStream(url);
}

/**
 * An agent conch does not start: it runs behind a URL, and conch speaks ACP to it over the SDK's
 * WebSocket or streamable-HTTP client. To the orchestrator it is an agent like any other; its
 * "exit" is the connection closing, and a close conch did not ask for is reported as lost.
 */
export class RemoteAgentLink implements AgentPort {
  /** A terminal login would run the agent's command here, and there is none to run. */
  readonly runsLocally = false;
  exit?: AgentExit;
  readonly exited: Promise<AgentExit>;
  private stopping = false;

  private constructor(
    readonly conn: AgentConnection,
    readonly init: InitializeResponse,
    private readonly url: string,
    private readonly trace?: TraceWriter,
  ) {
    this.exited = conn.conn.closed.then(
      () => this.ended(),
      () => this.ended(),
    );
  }

  private ended(): AgentExit {
    this.exit ??= {
      code: null,
      signal: null,
      stderrTail: "",
      expected: this.stopping,
      reason: this.stopping ? undefined : `the connection to ${this.url} was lost`,
    };
    this.trace?.note(`connection to ${this.url} closed`);
    this.trace?.close();
    return this.exit;
  }

  /** Connects and runs `initialize`; fails with a message saying what went wrong with the connection. */
  static async start(opts: AgentStartOptions, hooks: ClientHooks): Promise<RemoteAgentLink> {
    const remote = opts.agent.remote;
    if (!remote) throw new AgentStartError(`agent ${opts.agent.name} is not a remote agent`, "");
    const redactor = new Redactor(secretsPassedToAgent(undefined, opts.mcpServers));
    let trace: TraceWriter | undefined;
    try {
      trace = opts.traceFile
        ? new TraceWriter(
            opts.traceFile,
            redactor,
            (message) => hooks.onNotice("warning", message),
            `connecting to ${redactor.text(remote.url)}`,
            (opts.attempt ?? 1) > 1,
          )
        : undefined;
    } catch (err) {
      throw new AgentStartError(`could not open the trace file ${opts.traceFile}: ${(err as Error).message}`, "");
    }
    let conn: AgentConnection;
    try {
      conn = new AgentConnection({ stream: openStream(remote.url, remote.transport) }, hooks, {
        onMessage: (dir, msg) => trace?.message(dir, msg),
        onMalformed: (line, error) => trace?.malformed(line, error),
      });
    } catch (err) {
      trace?.close();
      throw new AgentStartError(`could not connect to ${remote.url}: ${(err as Error).message}`, "");
    }
    const closed = conn.conn.closed.then(() => {
      const why = conn.conn.signal.reason instanceof Error ? `: ${conn.conn.signal.reason.message}` : "";
      throw new AgentStartError(
        `could not reach the agent at ${remote.url} (the connection closed before it answered initialize${why})`,
        "",
      );
    });
    const { abandoned, cleanup } = startLimits(opts, `the agent at ${remote.url}`);
    try {
      // Terminal logins run the agent's own command: there is none here, so none are asked for.
      const init = await Promise.race([conn.initialize({ terminals: opts.terminals, terminalAuth: false }), closed, abandoned]);
      return new RemoteAgentLink(conn, init, remote.url, trace);
    } catch (err) {
      conn.close();
      trace?.close();
      if (err instanceof StartAbandoned || err instanceof AgentStartError) throw new AgentStartError(err.message, "");
      throw new AgentStartError(`could not connect to ${remote.url}: ${describeRpcError(err)}`, "");
    } finally {
      cleanup();
    }
  }

  flush(): Promise<void> {
    return this.conn.flush();
  }

  killNow(): void {
    this.stopping = true;
    this.conn.close();
  }

  /** Closes the connection; the agent itself goes on running where it runs. */
  async stop(): Promise<AgentExit> {
    this.stopping = true;
    this.trace?.note(`client closed the connection to ${this.url}`);
    this.conn.close();
    return this.exited;
  }
}
