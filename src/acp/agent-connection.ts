import type { Readable, Writable } from "node:stream";
import {
  client,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type AnyMessage,
  type ClientCapabilities,
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
  type SessionNotification,
  type SetSessionConfigOptionResponse,
  type TerminalOutputRequest,
  type TerminalOutputResponse,
  type WaitForTerminalExitRequest,
  type WaitForTerminalExitResponse,
} from "@agentclientprotocol/sdk";
import { CONCH_VERSION } from "./conch-version.js";
import { readTextFile, writeTextFile, type WriteObserver } from "./fs-handlers.js";
import { agentMessageStream, type AgentStream, type WireTaps } from "./message-stream.js";

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
  /**
   * A permission request, keyed by direction and id ("agent:<id>") because agents reuse the
   * client's small integer ids. `signal` aborts when the agent withdraws it (`$/cancel_request`).
   */
  onPermission(req: RequestPermissionRequest, key: string, signal: AbortSignal): Promise<RequestPermissionResponse>;
  /** `elicitation/create`: a question for the person (a form, or a URL to open); keyed like permissions. */
  onQuestion?(req: CreateElicitationRequest, key: string, signal: AbortSignal): Promise<CreateElicitationResponse>;
  /** `elicitation/complete`: the agent says a URL-mode question is done. */
  onQuestionComplete?(elicitationId: string): void;
  /** Something a user should know about the wire: malformed lines, unknown notifications. */
  onNotice(level: "info" | "warning" | "error", text: string): void;
  /** Workspace root for fs/* confinement. */
  root(): string;
  /** The agent reads a file before creating it and needs a missing file to read as empty. */
  missingFileReadsAsEmpty?(): boolean;
  /** Hears of every `fs/write_text_file`, with what it replaced, before the agent is answered (undo). */
  writes?: WriteObserver;
  terminals?: TerminalHost;
}

/** What conch advertises in `initialize`: only what it really serves. */
export function clientCapabilities(opts: { terminals: boolean }): ClientCapabilities {
  return {
    fs: { readTextFile: true, writeTextFile: true },
    terminal: opts.terminals,
    elicitation: { form: {}, url: {} },
    // The display-only terminal extension of claude-agent-acp and codex-acp.
    _meta: { terminal_output: true },
  };
}

/** The steering extension's request: a message for the turn that runs now. */
export const STEER_METHOD = "_session/steering";

/**
 * What an agent did with a steered message: `injected` into the running turn; `promptRequired`
 * (no turn ran, and conch asked to be told): send it as a prompt; `startedNewTurn`: the agent ran
 * it as a turn of its own (an agent that ignores conch's `idleBehavior`).
 */
export interface SteerResult {
  outcome: "injected" | "promptRequired" | "startedNewTurn";
  reason?: string;
}

/** Whether an agent said in `initialize` that it takes `_session/steering` (top-level `_meta.steering.supported`). */
export function advertisesSteering(init: InitializeResponse | undefined): boolean {
  const meta = init?._meta as { steering?: { supported?: unknown } } | null | undefined;
  return meta?.steering?.supported === true;
}

/** An agent's answer to a steer, checked: anything else is an error a person can read. */
export function readSteerResult(raw: unknown): SteerResult {
  const r = raw as { outcome?: unknown; reason?: unknown } | null;
  const outcome = r && typeof r === "object" ? r.outcome : undefined;
  if (outcome !== "injected" && outcome !== "promptRequired" && outcome !== "startedNewTurn") {
    throw new Error(`the agent answered ${STEER_METHOD} with an unknown outcome: ${JSON.stringify(outcome ?? null).slice(0, 80)}`);
  }
  return typeof r?.reason === "string" ? { outcome, reason: r.reason } : { outcome };
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
 * One ACP connection to an agent process, client side. Wraps the SDK's ClientApp: typed requests
 * out, conch's hooks in. `session/update` bypasses the SDK so newer update kinds are not rejected.
 */
export class AgentConnection {
  readonly conn: ClientConnection;
  initializeResponse?: InitializeResponse;
  private readonly stream: AgentStream;

  constructor(stdout: Readable, stdin: Writable, private readonly hooks: ClientHooks, taps: WireTaps = {}) {
    const app = client({ name: "conch" })
      .onRequest(methods.client.session.requestPermission, ({ params, requestId, signal }) =>
        hooks.onPermission(params, `agent:${String(requestId)}`, signal),
      )
      .onRequest(methods.client.fs.readTextFile, ({ params }) =>
        readTextFile(hooks.root(), params, { missingAsEmpty: hooks.missingFileReadsAsEmpty?.() === true }),
      )
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => writeTextFile(hooks.root(), params, hooks.writes))
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
      .onNotification("*", ({ method }) => {
        // Extension notifications (`_auth/status_update`, …) are fine to ignore; say so once in the log.
        if (!method.startsWith("_")) hooks.onNotice("info", `agent sent an unknown notification: ${method}`);
      });
    const stream = (this.stream = agentMessageStream(stdout, stdin, {
      onMessage: taps.onMessage,
      onMalformed: (line, error) => {
        taps.onMalformed?.(line, error);
        hooks.onNotice("warning", `the agent wrote a line that is not a JSON-RPC message (${error}): ${line.slice(0, 200)}`);
      },
      intercept: (msg: AnyMessage) => {
        if (!("method" in msg) || msg.method !== "session/update" || "id" in msg) return false;
        const params = (msg as { params?: unknown }).params;
        if (!params || typeof params !== "object" || typeof (params as { update?: unknown }).update !== "object") {
          hooks.onNotice("warning", `the agent sent a session/update without an update: ${JSON.stringify(params).slice(0, 200)}`);
          return true;
        }
        hooks.onUpdate(params as SessionNotification);
        return true;
      },
    }));
    this.conn = app.connect(stream);
  }

  private terminals(): TerminalHost {
    if (!this.hooks.terminals) throw RequestError.methodNotFound("terminal/create");
    return this.hooks.terminals;
  }

  /** `initialize`: negotiates the protocol version and capabilities. */
  async initialize(opts: { terminals: boolean }): Promise<InitializeResponse> {
    this.initializeResponse = await this.conn.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: clientCapabilities(opts),
      clientInfo: { name: "conch", title: "conch", version: CONCH_VERSION },
    });
    return this.initializeResponse;
  }

  authenticate(methodId: string): Promise<unknown> {
    return this.conn.agent.request(methods.agent.authenticate, { methodId });
  }

  newSession(cwd: string, mcpServers: McpServer[] = []): Promise<NewSessionResponse> {
    return this.conn.agent.request(methods.agent.session.new, { cwd, mcpServers });
  }

  loadSession(sessionId: string, cwd: string, mcpServers: McpServer[] = []): Promise<LoadSessionResponse> {
    return this.conn.agent.request(methods.agent.session.load, { sessionId, cwd, mcpServers });
  }

  resumeSession(sessionId: string, cwd: string, mcpServers: McpServer[] = []): Promise<ResumeSessionResponse> {
    return this.conn.agent.request(methods.agent.session.resume, { sessionId, cwd, mcpServers });
  }

  listSessions(cwd?: string): Promise<ListSessionsResponse> {
    return this.conn.agent.request(methods.agent.session.list, cwd ? { cwd } : {});
  }

  deleteSession(sessionId: string): Promise<unknown> {
    return this.conn.agent.request(methods.agent.session.delete, { sessionId });
  }

  /** `session/close`: the agent ends the session's work and frees it (when it advertises `sessionCapabilities.close`). */
  closeSession(sessionId: string): Promise<unknown> {
    return this.conn.agent.request(methods.agent.session.close, { sessionId });
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
    const raw = await this.conn.agent.request<unknown>(STEER_METHOD, { sessionId, prompt, _meta: { steering: { idleBehavior: "promptRequired" } } });
    return readSteerResult(raw);
  }

  cancel(sessionId: string): Promise<void> {
    return this.conn.agent.notify(methods.agent.session.cancel, { sessionId });
  }

  setMode(sessionId: string, modeId: string): Promise<unknown> {
    return this.conn.agent.request(methods.agent.session.setMode, { sessionId, modeId });
  }

  setConfigOption(sessionId: string, configId: string, value: string): Promise<SetSessionConfigOptionResponse> {
    return this.conn.agent.request(methods.agent.session.setConfigOption, { sessionId, configId, value });
  }

  /** `session/set_model`: unstable, sent by name; claude and gemini serve it. */
  setModel(sessionId: string, modelId: string): Promise<unknown> {
    return this.conn.agent.request("session/set_model", { sessionId, modelId });
  }

  /** Resolves once everything sent so far (answers to the agent's requests included) has reached its stdin. */
  flush(): Promise<void> {
    return this.stream.drained();
  }

  close(): void {
    this.conn.close();
  }
}
