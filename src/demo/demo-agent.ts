import { agent, methods, PROTOCOL_VERSION, RequestError, type AgentApp } from "@agentclientprotocol/sdk";
import { afterResponse } from "./after-response.js";
import { AGENT_INFO } from "./agent-info.js";
import { DemoLogin } from "./demo-login.js";
import type { DemoConfig } from "./demo-config.js";
import { realProcess, type DemoEnvironment, type ProcessControl } from "./demo-environment.js";
import type { DemoSession } from "./demo-session.js";
import { runTurn } from "./run-turn.js";
import { configOptions, DEMO_COMMANDS, isDemoMode, isDemoModel, modeState, MODEL_OPTION_ID } from "./session-options.js";
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
    if (!login.loggedIn()) throw RequestError.authRequired(undefined, "log in first: the demo agent was started with CONCH_DEMO_AUTH=1");
  };

  const app = agent({ name: "conch-demo" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      env.clientCapabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: AGENT_INFO,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, embeddedContext: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        authMethods: login.methods(),
        _meta: STEERING_META,
      };
    })
    .onRequest(methods.agent.authenticate, ({ params }) => {
      login.authenticate(params.methodId);
      return {};
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      requireLogin();
      const session = await registry.create(params.cwd, client);
      announceSession(session, false);
      return { sessionId: session.id, modes: modeState(session.record.modeId), configOptions: configOptions(session.record.model) };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      requireLogin();
      const session = await registry.open(params.sessionId, client, params.cwd);
      await replayHistory(session);
      announceSession(session, true);
      return { modes: modeState(session.record.modeId), configOptions: configOptions(session.record.model) };
    })
    .onRequest(methods.agent.session.resume, async ({ params, client }) => {
      requireLogin();
      const session = await registry.open(params.sessionId, client, params.cwd);
      announceSession(session, true);
      return { modes: modeState(session.record.modeId), configOptions: configOptions(session.record.model) };
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
      if (params.configId !== MODEL_OPTION_ID || typeof params.value !== "string" || !isDemoModel(params.value)) {
        throw RequestError.invalidParams(undefined, `unknown config option or value: ${params.configId}=${String(params.value)}`);
      }
      session.attach(client);
      session.record.model = params.value;
      const options = configOptions(session.record.model);
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
