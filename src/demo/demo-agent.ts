import {
  agent,
  methods,
  PROTOCOL_VERSION,
  RequestError,
  type AgentApp,
  type ClientCapabilities,
  type InitializeRequest,
} from "@agentclientprotocol/sdk";
import type { ForkSessionRequest } from "@agentclientprotocol/sdk/unstable";
import { afterResponse } from "./after-response.js";
import { AGENT_INFO } from "./agent-info.js";
import { DemoLogin } from "./demo-login.js";
import type { DemoConfig } from "./demo-config.js";
import { realProcess, type DemoEnvironment, type ProcessControl } from "./demo-environment.js";
import type { DemoSession } from "./demo-session.js";
import { runTurn } from "./run-turn.js";
import { applyConfigOption, configOptions, DEMO_COMMANDS, isDemoMode, modelState, modeState } from "./session-options.js";
import { SessionRegistry } from "./session-registry.js";
import { closeOrphanedToolCalls, replayHistory } from "./session-replay.js";
import { SessionStore } from "./session-store.js";
import { parseSteerParams, STEER_METHOD, STEERING_META } from "./steering.js";

export interface DemoAgentOptions {
  config: DemoConfig;
  /** Where sessions are saved; defaults to `config.stateDir`. */
  store?: SessionStore;
  /** Defaults to the real process; tests pass a stub so `crash` does not exit the test run. */
  processControl?: ProcessControl;
}

/** The demo agent, plus the hook its entry point needs at exit. */
export interface DemoAgent {
  app: AgentApp;
  /** Saves every live session before returning. */
  saveAllSync(): void;
}

/**
 * `initialize`'s params with the client's capabilities whole: the stable schema would drop the
 * unstable ones (`plan`), which the demo reads to offer identified plans.
 */
function readInitialize(raw: unknown): InitializeRequest {
  const p = (raw ?? {}) as Record<string, unknown>;
  if (typeof p.protocolVersion !== "number") throw RequestError.invalidParams(undefined, "initialize needs a protocolVersion");
  const caps = p.clientCapabilities && typeof p.clientCapabilities === "object" ? (p.clientCapabilities as ClientCapabilities) : {};
  return { ...(p as InitializeRequest), clientCapabilities: caps };
}

/** The params of the unstable `session/fork` the demo reads (the stable app has no parser for it). */
function readForkParams(raw: unknown): Pick<ForkSessionRequest, "sessionId" | "cwd" | "additionalDirectories"> {
  const p = (raw ?? {}) as Record<string, unknown>;
  if (typeof p.sessionId !== "string" || typeof p.cwd !== "string")
    throw RequestError.invalidParams(undefined, "session/fork needs sessionId and cwd");
  const dirs = Array.isArray(p.additionalDirectories)
    ? p.additionalDirectories.filter((d): d is string => typeof d === "string")
    : undefined;
  return { sessionId: p.sessionId, cwd: p.cwd, additionalDirectories: dirs };
}

/** Builds the demo agent: an SDK `AgentApp` that plays scripted scenarios. */
export function createDemoAgent(options: DemoAgentOptions): DemoAgent {
  const registry = new SessionRegistry(options.store ?? new SessionStore(options.config.stateDir), options.config.stateUpdates === true);
  const env: DemoEnvironment = {
    config: options.config,
    clientCapabilities: {},
    processControl: options.processControl ?? realProcess,
    saveAllSync: () => registry.saveAllSync(),
  };

  /** Sent after a session opens, like real agents do once the response is out. */
  const announceSession = (session: DemoSession, closeOrphans: boolean): void =>
    afterResponse(() => {
      void (async () => {
        await session.send({ sessionUpdate: "available_commands_update", availableCommands: DEMO_COMMANDS });
        if (closeOrphans) await closeOrphanedToolCalls(session, options.config);
      })().catch(() => undefined);
    });

  const login = new DemoLogin(options.config);
  const requireLogin = (): void => {
    if (!login.loggedIn())
      throw RequestError.authRequired(
        undefined,
        "log in first: the demo agent needs a login (it was started with CONCH_DEMO_AUTH=1, or logged out)",
      );
  };
  /** Boolean config options go only to clients that advertise them. */
  const booleans = (): boolean => !!env.clientCapabilities.session?.configOptions?.boolean;
  const optionsOf = (session: DemoSession) => configOptions(session.record, booleans());
  /** What session/new, load, resume and fork answer with. */
  const opened = (session: DemoSession) => ({
    modes: modeState(session.record.modeId),
    // Unstable, and stale once the model option changes (as with claude-agent-acp 0.23): the option is the truth.
    ...({ models: modelState(session.record) } as object),
    configOptions: optionsOf(session),
  });

  const app = agent({ name: "conch-demo" })
    .onRequest(methods.agent.initialize, readInitialize, ({ params }) => {
      env.clientCapabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: AGENT_INFO,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          // `fork` is unstable: typed by the unstable schema, sent on this stable connection as is.
          sessionCapabilities: { list: {}, resume: {}, close: {}, additionalDirectories: {}, ...({ fork: {} } as object) },
          auth: { logout: {} },
        },
        authMethods: login.methods(params.clientCapabilities?.auth?.terminal === true),
        _meta: STEERING_META,
      };
    })
    .onRequest(methods.agent.authenticate, ({ params }) => {
      login.authenticate(params.methodId);
      return {};
    })
    .onRequest(methods.agent.logout, () => {
      login.logout();
      return {};
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      requireLogin();
      const session = await registry.create(params.cwd, client, params.additionalDirectories);
      announceSession(session, false);
      return { sessionId: session.id, ...opened(session) };
    })
    .onRequest(methods.agent.session.load, async ({ params, client, signal }) => {
      requireLogin();
      const session = await registry.open(params.sessionId, client, params.cwd, params.additionalDirectories);
      await replayHistory(session, options.config.loadMs, signal);
      announceSession(session, true);
      return opened(session);
    })
    .onRequest(methods.agent.session.resume, async ({ params, client }) => {
      requireLogin();
      const session = await registry.open(params.sessionId, client, params.cwd, params.additionalDirectories);
      announceSession(session, true);
      return opened(session);
    })
    .onRequest("session/fork", readForkParams, async ({ params, client }) => {
      requireLogin();
      const session = await registry.fork(params.sessionId, client, params.cwd, params.additionalDirectories);
      announceSession(session, false);
      return { sessionId: session.id, ...opened(session) };
    })
    .onRequest(methods.agent.session.list, async ({ params }) => ({ sessions: await registry.list(params.cwd) }))
    .onRequest(methods.agent.session.setMode, async ({ params, client }) => {
      const session = registry.require(params.sessionId);
      if (!isDemoMode(params.modeId)) throw RequestError.invalidParams(undefined, `unknown mode: ${params.modeId}`);
      session.attach(client);
      session.record.modeId = params.modeId;
      await session.send({ sessionUpdate: "current_mode_update", currentModeId: params.modeId });
      await session.save();
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params, client }) => {
      const session = registry.require(params.sessionId);
      if (!applyConfigOption(session.record, params.configId, params.value, booleans())) {
        throw RequestError.invalidParams(undefined, `unknown config option or value: ${params.configId}=${String(params.value)}`);
      }
      session.attach(client);
      const options = optionsOf(session);
      await session.send({ sessionUpdate: "config_option_update", configOptions: options });
      await session.save();
      return { configOptions: options };
    })
    .onRequest(methods.agent.session.prompt, async ({ params, signal, client }) => {
      const session = registry.require(params.sessionId);
      session.attach(client);
      const { response, turn } = await runTurn(session, params, signal, env);
      afterResponse(() => turn.startDeferredJobs());
      return response;
    })
    .onRequest(STEER_METHOD, parseSteerParams, ({ params, client }) => {
      const session = registry.require(params.sessionId);
      if (session.steer(params.prompt)) return { outcome: "injected" };
      if (params.idleBehavior === "promptRequired") return { outcome: "promptRequired", reason: "noRunningTurn" };
      // Without the opt-in, claude-agent-acp runs the message as a turn of its own: so does the demo.
      session.attach(client);
      void runTurn(session, { sessionId: params.sessionId, prompt: params.prompt }, new AbortController().signal, env)
        .then(({ turn }) => afterResponse(() => turn.startDeferredJobs()))
        .catch(() => undefined);
      return { outcome: "startedNewTurn" };
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      await registry.close(params.sessionId);
      return {};
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      registry.get(params.sessionId)?.cancel();
    });

  return { app, saveAllSync: () => registry.saveAllSync() };
}
