// A scripted ACP client for the demo agent's tests. It speaks the real wire
// format (ndjson over byte streams, the same path main.ts uses over stdio), so
// tests see every message in the order the agent wrote it, including ones the
// SDK's typed client would reject (an unknown sessionUpdate kind).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ndJsonStream,
  type ClientCapabilities,
  type PermissionOptionKind,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { DemoConfig } from "../../../src/demo/demo-config.js";
import { createDemoAgent } from "../../../src/demo/demo-agent.js";
import type { DemoPromptResponse } from "../../../src/demo/run-turn.js";

/** One JSON-RPC message as it crossed the wire. */
export interface WireMessage {
  jsonrpc: "2.0";
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Clients that advertise everything: fs, terminals and display-only terminals. */
export const FULL_CAPABILITIES: ClientCapabilities = {
  fs: { readTextFile: true, writeTextFile: true },
  terminal: true,
  _meta: { terminal_output: true },
};

export type PermissionAnswer =
  | PermissionOptionKind
  | "cancelled"
  | ((request: RequestPermissionRequest) => Promise<RequestPermissionResponse> | RequestPermissionResponse);

/** A terminal the harness runs for `terminal/create`. */
export interface FakeTerminal {
  id: string;
  command: string;
  args: string[];
  cwd?: string | null;
  output: string;
  exit?: { exitCode: number | null; signal: string | null };
  released: boolean;
  killed: boolean;
  /** Settles `terminal/wait_for_exit`. */
  finish(exit: { exitCode: number | null; signal: string | null }): void;
  exited: Promise<{ exitCode: number | null; signal: string | null }>;
}

export interface HarnessOptions {
  capabilities?: ClientCapabilities;
  config?: Partial<DemoConfig>;
  /** How permission requests are answered (default: the first `allow_once` option). */
  permission?: PermissionAnswer;
  /**
   * How terminals behave: `exit` finishes at once with `output`, `manual` waits
   * for the test to call `finish`, `real` runs the command with sh.
   */
  terminals?: { mode: "exit"; output: string } | { mode: "manual" } | { mode: "real" };
}

/** A demo agent connected in-process to a scripted client. */
export class DemoHarness {
  /** Every message the agent wrote, in order. */
  readonly received: WireMessage[] = [];
  /** Every message the harness wrote, in order. */
  readonly sent: WireMessage[] = [];
  /** The client's files, served through fs/*. */
  readonly files = new Map<string, string>();
  readonly terminals = new Map<string, FakeTerminal>();
  readonly exitCodes: number[] = [];
  /** Resolves with the code of the agent's first (stubbed) `process.exit`. */
  readonly exited: Promise<number>;
  private reportExit: (code: number) => void = () => undefined;
  stderr = "";
  permission: PermissionAnswer;

  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly pending = new Map<number, (message: WireMessage) => void>();
  private readonly waiters: Array<() => void> = [];
  private nextId = 1;
  private closed = false;

  private constructor(
    readonly stateDir: string,
    private readonly options: HarnessOptions,
    agentInput: WritableStream<Uint8Array>,
    agentOutput: ReadableStream<Uint8Array>,
  ) {
    this.permission = options.permission ?? "allow_once";
    this.exited = new Promise((resolve) => (this.reportExit = resolve));
    this.writer = agentInput.getWriter();
    void this.readLoop(agentOutput);
  }

  /** Starts an agent and a client, and runs `initialize`. */
  static async start(options: HarnessOptions & { stateDir?: string } = {}): Promise<DemoHarness> {
    const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "conch-demo-test-"));
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const fromAgent = new TransformStream<Uint8Array, Uint8Array>();
    const harness: DemoHarness = new DemoHarness(stateDir, options, toAgent.writable, fromAgent.readable);
    const demo = createDemoAgent({
      config: { delayMs: 0, backgroundMs: 20, floodChunks: 100, stateDir, loadMs: 0, requireAuth: false, ...options.config },
      processControl: {
        exit: (code) => {
          harness.exitCodes.push(code);
          harness.reportExit(code);
        },
        writeStderr: (text) => {
          harness.stderr += text;
        },
      },
    });
    demo.app.connect(ndJsonStream(fromAgent.writable, toAgent.readable));
    await harness.request("initialize", {
      protocolVersion: 1,
      clientCapabilities: options.capabilities ?? FULL_CAPABILITIES,
      clientInfo: { name: "demo-harness", version: "0" },
    });
    return harness;
  }

  /** Sends a request and resolves with its result; rejects with its error. */
  async request<T = unknown>(method: string, params: Record<string, unknown>): Promise<T> {
    const message = await this.requestRaw(method, params);
    if (message.error) throw Object.assign(new Error(message.error.message), { code: message.error.code });
    return message.result as T;
  }

  /** Sends a request and resolves with the whole response message. */
  requestRaw(method: string, params: Record<string, unknown>): Promise<WireMessage> {
    const id = this.nextId++;
    const response = new Promise<WireMessage>((resolve) => this.pending.set(id, resolve));
    void this.write({ jsonrpc: "2.0", id, method, params });
    return response;
  }

  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.write({ jsonrpc: "2.0", method, params });
  }

  /**
   * Opens a session in `cwd` (a fresh temp folder by default) and returns its
   * id once its `available_commands_update` has arrived, so that late update
   * does not land in the middle of the test's first turn.
   */
  async newSession(cwd = mkdtempSync(join(tmpdir(), "conch-demo-cwd-"))): Promise<string> {
    const { sessionId } = await this.request<{ sessionId: string }>("session/new", { cwd, mcpServers: [] });
    await this.waitFor(
      (message) =>
        message.method === "session/update" &&
        (message.params as { sessionId: string; update: SessionUpdate }).sessionId === sessionId &&
        (message.params as { update: SessionUpdate }).update.sessionUpdate === "available_commands_update",
    );
    return sessionId;
  }

  /** Sends a text prompt and waits for its response. */
  prompt(sessionId: string, text: string): Promise<DemoPromptResponse> {
    return this.request<DemoPromptResponse>("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
  }

  /** Index in `received` of the response to request `id`, or -1. */
  responseIndex(id: number): number {
    return this.received.findIndex((message) => message.id === id && message.method === undefined);
  }

  /** The `session/update`s received so far (optionally only from index `from`). */
  updates(from = 0): SessionUpdate[] {
    return this.received
      .slice(from)
      .filter((message) => message.method === "session/update")
      .map((message) => (message.params as { update: SessionUpdate }).update);
  }

  /** The text of all agent message chunks received so far (optionally from index `from`). */
  messageText(from = 0): string {
    return this.updates(from)
      .map((update) => (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text" ? update.content.text : ""))
      .join("");
  }

  /** Waits until a received message satisfies `predicate`; returns its index. */
  async waitFor(predicate: (message: WireMessage) => boolean): Promise<number> {
    for (;;) {
      const index = this.received.findIndex(predicate);
      if (index >= 0) return index;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Waits for a `session/update` satisfying `predicate`; returns its index in `received`. */
  waitForUpdate(predicate: (update: SessionUpdate) => boolean): Promise<number> {
    return this.waitFor(
      (message) => message.method === "session/update" && predicate((message.params as { update: SessionUpdate }).update),
    );
  }

  /** Stops the client side; the agent's connection closes with it. */
  async close(): Promise<void> {
    this.closed = true;
    await this.writer.close().catch(() => undefined);
    for (const terminal of this.terminals.values()) terminal.finish({ exitCode: null, signal: "SIGKILL" });
  }

  private async write(message: WireMessage): Promise<void> {
    if (this.closed) return;
    this.sent.push(message);
    await this.writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
  }

  private async readLoop(output: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const reader = output.getReader();
    let buffer = "";
    for (;;) {
      const { value: bytes, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(bytes, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.trim() !== "") this.receive(JSON.parse(line) as WireMessage);
      }
    }
  }

  private receive(message: WireMessage): void {
    this.received.push(message);
    if (message.method === undefined && typeof message.id === "number") {
      this.pending.get(message.id)?.(message);
      this.pending.delete(message.id);
    } else if (message.method !== undefined && message.id !== undefined) {
      void this.answer(message);
    }
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async answer(request: WireMessage): Promise<void> {
    const id = request.id;
    try {
      const result = await this.handle(request.method ?? "", request.params ?? {});
      await this.write({ jsonrpc: "2.0", id, result });
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : -32603;
      await this.write({ jsonrpc: "2.0", id, error: { code, message: (error as Error).message } });
    }
  }

  private async handle(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case "session/request_permission":
        return this.answerPermission(params as unknown as RequestPermissionRequest);
      case "fs/read_text_file": {
        const content = this.files.get(String(params.path));
        if (content === undefined) throw Object.assign(new Error("Resource not found"), { code: -32002 });
        return { content };
      }
      case "fs/write_text_file":
        this.files.set(String(params.path), String(params.content));
        return {};
      case "terminal/create":
        return { terminalId: this.createTerminal(params).id };
      case "terminal/wait_for_exit":
        return this.terminal(params).exited;
      case "terminal/output": {
        const terminal = this.terminal(params);
        return { output: terminal.output, truncated: false, exitStatus: terminal.exit ?? null };
      }
      case "terminal/kill": {
        const terminal = this.terminal(params);
        terminal.killed = true;
        terminal.finish({ exitCode: null, signal: "SIGKILL" });
        return {};
      }
      case "terminal/release":
        this.terminal(params).released = true;
        return {};
      default:
        throw Object.assign(new Error(`Method not found: ${method}`), { code: -32601 });
    }
  }

  private async answerPermission(request: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const answer = this.permission;
    if (typeof answer === "function") return answer(request);
    if (answer === "cancelled") return { outcome: { outcome: "cancelled" } };
    const option = request.options.find((candidate) => candidate.kind === answer);
    if (!option) throw new Error(`no ${answer} option offered`);
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  }

  private terminal(params: Record<string, unknown>): FakeTerminal {
    const terminal = this.terminals.get(String(params.terminalId));
    if (!terminal) throw Object.assign(new Error("unknown terminal"), { code: -32002 });
    return terminal;
  }

  private createTerminal(params: Record<string, unknown>): FakeTerminal {
    const id = `term-${this.terminals.size + 1}`;
    let finish: FakeTerminal["finish"] = () => undefined;
    const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => {
      finish = (exit) => {
        if (!terminal.exit) terminal.exit = exit;
        resolve(terminal.exit);
      };
    });
    const terminal: FakeTerminal = {
      id,
      command: String(params.command),
      args: Array.isArray(params.args) ? params.args.map(String) : [],
      cwd: typeof params.cwd === "string" ? params.cwd : null,
      output: "",
      released: false,
      killed: false,
      finish: (exit) => finish(exit),
      exited,
    };
    this.terminals.set(id, terminal);
    const mode = this.options.terminals ?? { mode: "exit", output: "ok\n" };
    if (mode.mode === "exit") {
      terminal.output = mode.output;
      terminal.finish({ exitCode: 0, signal: null });
    } else if (mode.mode === "real") {
      const child = spawn(terminal.command, terminal.args, { cwd: terminal.cwd ?? undefined });
      child.stdout.on("data", (chunk: Buffer) => (terminal.output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (terminal.output += chunk.toString()));
      child.on("close", (exitCode, signal) => terminal.finish({ exitCode, signal }));
    }
    return terminal;
  }
}
