import type { Readable, Writable } from "node:stream";
import type { ForkSessionResponse } from "@agentclientprotocol/sdk/unstable";
import {
  client,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type ClientConnection,
  type ContentBlock,
  type CreateElicitationRequest,
  type CreateElicitationResponse,
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  type InitializeResponse,
  type KillTerminalRequest,
  type ListSessionsResponse,
  type LoadSessionResponse,
  type McpServer,
  type NewSessionResponse,
  type PromptResponse,
  type ReleaseTerminalRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type ResumeSessionResponse,
  type SendRequestOptions,
  type SessionNotification,
  type SetSessionConfigOptionResponse,
  type Stream,
  type TerminalOutputRequest,
  type TerminalOutputResponse,
  type WaitForTerminalExitRequest,
  type WaitForTerminalExitResponse,
} from "@agentclientprotocol/sdk";
import { clientCapabilities } from "./client-capabilities.js";
import { CONCH_VERSION } from "../conch-version.js";
import { connectionTaps } from "./connection-taps.js";
import { readTextFile, writeTextFile, type WriteObserver } from "./fs-handlers.js";
import { agentMessageStream, tappedMessageStream, type AgentStream, type WireTaps } from "./message-stream.js";
import { readSteerResult, STEER_METHOD, type SteerResult } from "./steering.js";
import { rootFor } from "./workspace-path.js";

export { advertisesSteering, type SteerResult } from "./steering.js";

/** The client side of `terminal/*`, served by terminals/ through the orchestrator. */
export interface TerminalHost {
  create(req: CreateTerminalRequest): Promise<CreateTerminalResponse>;
  output(req: TerminalOutputRequest): Promise<TerminalOutputResponse>;
  waitForExit(req: WaitForTerminalExitRequest): Promise<WaitForTerminalExitResponse>;
  kill(req: KillTerminalRequest): Promise<void>;
  release(req: ReleaseTerminalRequest): Promise<void>;
}

/** What the connection hands up to the orchestrator. It never touches UI. */
export interface ClientHooks {
  /** Every `session/update`, known kind or not, in wire order. */
  onUpdate(n: SessionNotification): void;
  /** The updates between "start" and "end" came in one read of the agent's output. */
  onBurst?(phase: "start" | "end"): void;
  /** A person types while the agent's output is read (the TUI): reads pause so keys get a turn (`WireTaps.paceReads`). */
  paceReads?: boolean;
  /** Whoever takes the updates is behind (print mode's stdout over its mark): reading waits for the promise (`WireTaps.holdReads`). */
  holdReads?(): Promise<void> | undefined;
  /**
   * A permission request, keyed by direction and id ("agent:<id>") because agents reuse the
   * client's small integer ids. `signal` aborts when the agent withdraws it (`$/cancel_request`).
   */
  onPermission(req: RequestPermissionRequest, key: string, signal: AbortSignal): Promise<RequestPermissionResponse>;
  /** `elicitation/create`: a question for the person (a form, or a URL to open); keyed like permissions. */
  onQuestion?(req: CreateElicitationRequest, key: string, signal: AbortSignal): Promise<CreateElicitationResponse>;
  /** `elicitation/complete`: the agent says a URL-mode question is done. */
  onQuestionComplete?(elicitationId: string): void;
  /** An extension notification (`_`-prefixed), e.g. a turn signal such as `_session/turn_ended`. */
  onExtNotification?(method: string, params: unknown): void;
  /** Something a user should know about the wire: malformed lines, unknown notifications. */
  onNotice(level: "info" | "warning" | "error", text: string): void;
  /** Workspace root for fs/* confinement. */
  root(): string;
  /** Further directories fs/* may reach: the session's `additionalDirectories`. */
  additionalRoots?(): readonly string[];
  /** The agent reads a file before creating it and needs a missing file to read as empty. */
  missingFileReadsAsEmpty?(): boolean;
  /** Hears of every `fs/write_text_file`, with what it replaced, before the agent is answered (undo). */
  writes?: WriteObserver;
  terminals?: TerminalHost;
}

/** How conch's own request may be given up: aborting sends `$/cancel_request` and stops waiting. */
export interface RequestControl {
  signal?: AbortSignal;
}

function sendOptions(ctl: RequestControl | undefined): SendRequestOptions | undefined {
  return ctl?.signal ? { cancellationSignal: ctl.signal, stopWaitingOnCancel: true } : undefined;
}

/** Where the connection's messages travel: an agent process's stdio, or a stream the SDK frames (WebSocket, HTTP). */
export type AgentTransport = { stdout: Readable; stdin: Writable; gone?: Promise<void> } | { stream: Stream };

/** What a session is opened with besides its directory. */
export interface SessionSetup {
  mcpServers?: McpServer[];
  /** Sent only to agents that advertise `sessionCapabilities.additionalDirectories`. */
  additionalDirectories?: string[];
}

function setupParams(setup: SessionSetup): { mcpServers: McpServer[]; additionalDirectories?: string[] } {
  const dirs = setup.additionalDirectories ?? [];
  return { mcpServers: setup.mcpServers ?? [], ...(dirs.length ? { additionalDirectories: dirs } : {}) };
}

/** Short description of a JSON-RPC error for a person. */
export function describeRpcError(err: unknown): string {
  if (err instanceof RequestError) {
    const data = err.data as { details?: unknown; message?: unknown } | undefined;
    const details = data && typeof data === "object" && typeof data.details === "string" ? `: ${data.details}` : "";
    return `${err.message}${details} (${err.code})`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * One ACP connection to an agent, client side, over its stdio or a remote stream. Wraps the SDK's
 * ClientApp: typed requests out, conch's hooks in. `session/update` bypasses the SDK so newer
 * update kinds are not rejected.
 */
export class AgentConnection {
  readonly conn: ClientConnection;
  initializeResponse?: InitializeResponse;
  private readonly stream: AgentStream;

  constructor(
    transport: AgentTransport,
    private readonly hooks: ClientHooks,
    taps: WireTaps = {},
  ) {
    const fsRoot = async (requested: string) => rootFor(hooks.root(), hooks.additionalRoots?.() ?? [], requested);
    const app = client({ name: "conch" })
      .onRequest(methods.client.session.requestPermission, ({ params, requestId, signal }) =>
        hooks.onPermission(params, `agent:${String(requestId)}`, signal),
      )
      .onRequest(methods.client.fs.readTextFile, async ({ params }) =>
        readTextFile(await fsRoot(params.path), params, { missingAsEmpty: hooks.missingFileReadsAsEmpty?.() === true }),
      )
      .onRequest(methods.client.fs.writeTextFile, async ({ params }) => writeTextFile(await fsRoot(params.path), params, hooks.writes))
      .onRequest(methods.client.terminal.create, ({ params }) => this.terminals().create(params))
      .onRequest(methods.client.terminal.output, ({ params }) => this.terminals().output(params))
      .onRequest(methods.client.terminal.waitForExit, ({ params }) => this.terminals().waitForExit(params))
      .onRequest(methods.client.terminal.kill, async ({ params }) => {
        await this.terminals().kill(params);
        return {};
      })
      .onRequest(methods.client.terminal.release, async ({ params }) => {
        await this.terminals().release(params);
        return {};
      })
      .onRequest(methods.client.elicitation.create, ({ params, requestId, signal }) => {
        if (!hooks.onQuestion) return { action: "decline" };
        return hooks.onQuestion(params, `agent:${String(requestId)}`, signal);
      })
      .onNotification(methods.client.elicitation.complete, ({ params }) => hooks.onQuestionComplete?.(params.elicitationId))
      .onRequest("*", ({ method }) => {
        throw RequestError.methodNotFound(method);
      })
      .onNotification("*", ({ method, params }) => {
        // Extension notifications (`_auth/status_update`, …) go up for whoever knows them; others are news.
        if (method.startsWith("_")) hooks.onExtNotification?.(method, params);
        else hooks.onNotice("info", `agent sent an unknown notification: ${method}`);
      });
    const wireTaps = connectionTaps(hooks, taps);
    const stream = (this.stream =
      "stream" in transport
        ? tappedMessageStream(transport.stream, wireTaps)
        : agentMessageStream(transport.stdout, transport.stdin, wireTaps, transport.gone));
    this.conn = app.connect(stream);
  }

  private terminals(): TerminalHost {
    if (!this.hooks.terminals) throw RequestError.methodNotFound("terminal/create");
    return this.hooks.terminals;
  }

  /** `initialize`: negotiates the protocol version and capabilities. */
  async initialize(opts: { terminals: boolean; terminalAuth?: boolean }): Promise<InitializeResponse> {
    this.initializeResponse = await this.conn.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: clientCapabilities(opts),
      clientInfo: { name: "conch", title: "conch", version: CONCH_VERSION },
    });
    return this.initializeResponse;
  }

  authenticate(methodId: string, ctl?: RequestControl): Promise<unknown> {
    return this.conn.agent.request(methods.agent.authenticate, { methodId }, sendOptions(ctl));
  }

  /** `logout` (when the agent advertises `auth.logout`): the agent forgets its login. */
  logout(ctl?: RequestControl): Promise<unknown> {
    return this.conn.agent.request(methods.agent.logout, {}, sendOptions(ctl));
  }

  newSession(cwd: string, setup: SessionSetup = {}, ctl?: RequestControl): Promise<NewSessionResponse> {
    return this.conn.agent.request(methods.agent.session.new, { cwd, ...setupParams(setup) }, sendOptions(ctl));
  }

  loadSession(sessionId: string, cwd: string, setup: SessionSetup = {}, ctl?: RequestControl): Promise<LoadSessionResponse> {
    return this.conn.agent.request(methods.agent.session.load, { sessionId, cwd, ...setupParams(setup) }, sendOptions(ctl));
  }

  resumeSession(sessionId: string, cwd: string, setup: SessionSetup = {}, ctl?: RequestControl): Promise<ResumeSessionResponse> {
    return this.conn.agent.request(methods.agent.session.resume, { sessionId, cwd, ...setupParams(setup) }, sendOptions(ctl));
  }

  /** `session/fork` (unstable; claude-agent-acp 0.100 serves it): a new session that starts with this one's history. */
  forkSession(sessionId: string, cwd: string, setup: SessionSetup = {}, ctl?: RequestControl): Promise<ForkSessionResponse> {
    return this.conn.agent.request<ForkSessionResponse>("session/fork", { sessionId, cwd, ...setupParams(setup) }, sendOptions(ctl));
  }

  listSessions(cwd?: string): Promise<ListSessionsResponse> {
    return this.conn.agent.request(methods.agent.session.list, cwd ? { cwd } : {});
  }

  deleteSession(sessionId: string): Promise<unknown> {
    return this.conn.agent.request(methods.agent.session.delete, { sessionId });
  }

  /** `session/close`: the agent ends the session's work and frees it (when it advertises `sessionCapabilities.close`). */
  closeSession(sessionId: string, ctl?: RequestControl): Promise<unknown> {
    return this.conn.agent.request(methods.agent.session.close, { sessionId }, sendOptions(ctl));
  }

  prompt(sessionId: string, prompt: ContentBlock[]): Promise<PromptResponse> {
    return this.conn.agent.request(methods.agent.session.prompt, { sessionId, prompt });
  }

  /**
   * `_session/steering`: `prompt` goes into the turn that runs now. With `idleBehavior:
   * promptRequired` an agent with no turn running leaves the message to conch (`promptRequired`),
   * which sends it as an ordinary prompt, so a turn never starts behind conch's back.
   */
  async steer(sessionId: string, prompt: ContentBlock[]): Promise<SteerResult> {
    const raw = await this.conn.agent.request<unknown>(STEER_METHOD, {
      sessionId,
      prompt,
      _meta: { steering: { idleBehavior: "promptRequired" } },
    });
    return readSteerResult(raw);
  }

  cancel(sessionId: string): Promise<void> {
    return this.conn.agent.notify(methods.agent.session.cancel, { sessionId });
  }

  setMode(sessionId: string, modeId: string, ctl?: RequestControl): Promise<unknown> {
    return this.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId }, sendOptions(ctl));
  }

  /** `session/set_config_option`: a select takes a value id, a boolean option (`type: "boolean"`) true or false. */
  setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
    ctl?: RequestControl,
  ): Promise<SetSessionConfigOptionResponse> {
    const params = typeof value === "boolean" ? { sessionId, configId, type: "boolean" as const, value } : { sessionId, configId, value };
    return this.conn.agent.request(methods.agent.session.setConfigOption, params, sendOptions(ctl));
  }

  /** `session/set_model`: unstable and being replaced by the model config option; claude and gemini serve it. */
  setModel(sessionId: string, modelId: string, ctl?: RequestControl): Promise<unknown> {
    return this.conn.agent.request("session/set_model", { sessionId, modelId }, sendOptions(ctl));
  }

  /** Resolves once everything sent so far (answers to the agent's requests included) has reached its stdin. */
  flush(): Promise<void> {
    return this.stream.drained();
  }

  close(): void {
    this.conn.close();
  }
}
