import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { ConchError } from "../errors/conch-error.js";
import { describeRpcError, type RequestControl } from "../acp/agent-connection.js";
import { currentModel, modelOption, selectValues } from "../session/config-options.js";
import type { SessionEventInput } from "../session/events.js";
import type { AgentPort, AgentRequests, AgentSlot, SessionEvents } from "./ports.js";

/** What the settings need: the queue, the agent, and a way to send conch's own requests. */
export interface SessionSettingsPorts {
  events: SessionEvents;
  agent: AgentSlot;
  requests: AgentRequests;
}

/** The session's settings at the agent: its mode, its model, its config options. */
export class SessionSettings {
  constructor(private readonly ports: SessionSettingsPorts) {}

  /**
   * Switches mode: `session/set_mode`, or the config option the modes come from (opencode); the mode
   * shows at once, and a refusal as an error notice.
   */
  async setMode(modeId: string): Promise<ConchError | undefined> {
    const configId = this.ports.events.state.modeConfigId;
    if (configId) return this.setConfigOption(configId, modeId);
    const changed = await this.changeSetting(
      `switch to mode ${modeId}`,
      (sid, conn, ctl) => conn.setMode(sid, modeId, ctl),
      (sid) => ({
        type: "update",
        notification: { sessionId: sid, update: { sessionUpdate: "current_mode_update", currentModeId: modeId } },
      }),
    );
    return changed instanceof ConchError ? changed : undefined;
  }

  /** `session/set_config_option` (a select's value id, or a boolean option's true/false); the agent's answer carries the new options. */
  async setConfigOption(configId: string, value: string | boolean): Promise<ConchError | undefined> {
    let answered: SessionConfigOption[] | undefined;
    const changed = await this.changeSetting(
      `set ${configId}`,
      (sid, conn, ctl) => conn.setConfigOption(sid, configId, value, ctl),
      (sid, resp) => {
        answered = resp?.configOptions ?? undefined;
        return answered
          ? { type: "update", notification: { sessionId: sid, update: { sessionUpdate: "config_option_update", configOptions: answered } } }
          : undefined;
      },
    );
    const { state } = this.ports.events;
    // Read from the answer: the update it makes may still wait behind a burst of the agent's.
    const options = answered ?? state.configOptions;
    if (changed === true && modelOption({ configOptions: options })?.id === configId)
      this.confirmModel(String(value), currentModel({ configOptions: options, models: state.models }));
    return changed instanceof ConchError ? changed : undefined;
  }

  /**
   * Switches model: the model config option when the agent has one that offers `modelId` (the
   * protocol's way), else the unstable `session/set_model` (claude, gemini), which the spec dropped.
   */
  async setModel(modelId: string): Promise<ConchError | undefined> {
    const { state } = this.ports.events;
    const option = modelOption(state);
    if (option && (!state.models || selectValues(option).some((v) => v.value === modelId))) return this.setConfigOption(option.id, modelId);
    const changed = await this.changeSetting(
      `switch to model ${modelId}`,
      (sid, conn, ctl) => conn.setModel(sid, modelId, ctl),
      () => ({ type: "model_set", modelId }),
    );
    if (changed === true)
      this.confirmModel(
        modelId,
        currentModel({ configOptions: [], models: { ...(state.models ?? { availableModels: [] }), currentModelId: modelId } }),
      );
    return changed instanceof ConchError ? changed : undefined;
  }

  /** One line in the transcript for a model change: the model now in use, as the agent's answer says. */
  private confirmModel(asked: string, now: { id: string; name: string } | undefined): void {
    const { events } = this.ports;
    const named = now ? (now.name === now.id ? now.id : `${now.name} (${now.id})`) : asked;
    const other = now && now.id !== asked ? `; ${asked} was asked for` : "";
    events.dispatch({ type: "notice", level: "info", text: `model: ${named}${other}` });
  }

  /**
   * One settings request to the agent: what it changed becomes an event, a refusal an error notice
   * and the typed error it resolves with (a request given up on is no refusal). True when the agent
   * took it.
   */
  private async changeSetting<R>(
    what: string,
    call: (sid: string, conn: AgentPort["conn"], ctl: RequestControl) => Promise<R>,
    changed: (sid: string, resp: R) => SessionEventInput | undefined,
  ): Promise<ConchError | boolean> {
    const { events, agent, requests } = this.ports;
    const sid = events.state.info?.sessionId;
    const link = agent.link;
    if (!sid || !link) return false;
    const gaveUp = new AbortController();
    try {
      const ev = changed(sid, await requests.run((ctl) => call(sid, link.conn, ctl), gaveUp));
      if (ev) events.dispatch(ev);
      return true;
    } catch (err) {
      const why = gaveUp.signal.aborted ? "gave up waiting for the agent" : describeRpcError(err);
      events.dispatch({ type: "notice", level: gaveUp.signal.aborted ? "warning" : "error", text: `could not ${what}: ${why}` });
      return gaveUp.signal.aborted ? false : new ConchError("setting-refused", `could not ${what}: ${why}`);
    }
  }
}
