import type { PromptResponse, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import type { ClientHooks, SteerResult } from "../../src/acp/agent-connection.js";
import type { AgentExit } from "../../src/agents/agent-process.js";
import type { AgentPort } from "../../src/orchestrator/ports.js";
import { Orchestrator, type OrchestratorOptions } from "../../src/orchestrator/orchestrator.js";

type Deferred<T> = { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void };
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A scripted agent: the test decides when each prompt answers and what streams meanwhile. */
export class FakeAgent implements AgentPort {
  hooks!: ClientHooks;
  init: AgentPort["init"] = { protocolVersion: 1, agentCapabilities: { loadSession: true } };
  configCalls: { configId: string; value: string }[] = [];
  modeCalls: string[] = [];
  prompts: { text: string; answer: Deferred<PromptResponse> }[] = [];
  cancels = 0;
  /** `_session/steering` requests, each answered when the test says. */
  steers: { text: string; answer: Deferred<SteerResult> }[] = [];
  private exitD = deferred<AgentExit>();
  exit?: AgentExit;
  readonly exited = this.exitD.promise;
  readonly conn = {
    newSession: async () => ({ sessionId: "s1" }),
    loadSession: async () => ({}),
    resumeSession: async () => ({}),
    prompt: (_sid: string, blocks: { type: string; text?: string }[]) => {
      const answer = deferred<PromptResponse>();
      this.prompts.push({ text: blocks.map((b) => b.text ?? "").join(""), answer });
      return answer.promise;
    },
    steer: (_sid: string, blocks: { type: string; text?: string }[]) => {
      const answer = deferred<SteerResult>();
      this.steers.push({ text: blocks.map((b) => b.text ?? "").join(""), answer });
      return answer.promise;
    },
    cancel: async () => {
      this.cancels++;
    },
    setMode: async (_sid: string, modeId: string) => {
      this.modeCalls.push(modeId);
      return {};
    },
    setConfigOption: async (_sid: string, configId: string, value: string) => {
      this.configCalls.push({ configId, value });
      return { configOptions: [] };
    },
    setModel: async () => ({}),
  } as unknown as AgentPort["conn"];

  update(update: SessionUpdate | Record<string, unknown>): void {
    this.hooks.onUpdate({ sessionId: "s1", update: update as SessionUpdate });
  }

  text(t: string): void {
    this.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } });
  }

  /** Asks permission; resolves with what conch answered. */
  ask(id: number, toolCallId: string, kind = "execute"): { signal: AbortController; answer: Promise<RequestPermissionResponse> } {
    const signal = new AbortController();
    const req: RequestPermissionRequest = {
      sessionId: "s1",
      toolCall: { toolCallId, title: `run ${toolCallId}`, kind: kind as never, status: "pending" },
      options: [
        { optionId: "yes", name: "Allow", kind: "allow_once" },
        { optionId: "always", name: "Always", kind: "allow_always" },
        { optionId: "no", name: "Reject", kind: "reject_once" },
      ],
    };
    return { signal, answer: this.hooks.onPermission(req, `agent:${id}`, signal.signal) };
  }

  /** Asks a form question; resolves with what conch answered. */
  question(id: number): Promise<unknown> {
    const req = {
      sessionId: "s1",
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    };
    return this.hooks.onQuestion!(req as never, `agent:${id}`, new AbortController().signal);
  }

  respond(n: number, stopReason: PromptResponse["stopReason"] = "end_turn"): void {
    this.prompts[n].answer.resolve({ stopReason });
  }

  die(code: number | null = 1, stderrTail = "boom", reason?: string): void {
    this.exit = { code, signal: null, stderrTail, expected: false, ...(reason ? { reason } : {}) };
    this.exitD.resolve(this.exit);
  }

  async stop(): Promise<void> {
    if (!this.exit) this.die(0, "");
  }
  killNow(): void {}
}

/** An orchestrator wired to a fake agent, with short timings. */
export async function startWithFake(
  opts: Partial<OrchestratorOptions> = {},
  init?: Partial<AgentPort["init"]>,
  session?: Record<string, unknown>,
): Promise<{ orch: Orchestrator; agent: FakeAgent }> {
  const agent = new FakeAgent();
  if (init) agent.init = { ...agent.init, ...init };
  if (session) (agent.conn as unknown as { newSession: () => Promise<unknown> }).newSession = async () => ({ sessionId: "s1", ...session });
  const orch = new Orchestrator({
    agent: { name: "fake", command: { command: "fake", args: [] }, via: "command" },
    cwd: "/tmp",
    policy: "ask",
    timing: { quietMs: 50, stallMs: 10_000 },
    connect: async (hooks) => {
      agent.hooks = hooks;
      return agent;
    },
    ...opts,
  });
  await orch.start();
  return { orch, agent };
}

/** Lets queued promise callbacks run. */
export const flush = () => new Promise((r) => setImmediate(r));
