import { randomUUID } from "node:crypto";
import type { AgentContext, ClientCapabilities, SessionUpdate } from "@agentclientprotocol/sdk";
import { sleep } from "./abortable-sleep.js";
import type { DemoConfig } from "./demo-config.js";
import type { DemoEnvironment } from "./demo-environment.js";
import type { BackgroundHandle, BackgroundJob, DemoSession } from "./demo-session.js";
import { promptText } from "./prompt-text.js";
import { streamText } from "./text-stream.js";
import { estimateTokens } from "./usage-meter.js";

/**
 * What a scenario works with during one prompt turn: the session, the
 * client, the cancel signal, and helpers that stream text and count tokens.
 */
export class Turn {
  /** Tokens "generated" so far in this turn. */
  outputTokens = 0;
  private readonly deferredJobs: BackgroundHandle[] = [];

  constructor(
    readonly session: DemoSession,
    readonly signal: AbortSignal,
    readonly env: DemoEnvironment,
  ) {}

  get config(): DemoConfig {
    return this.env.config;
  }

  get capabilities(): ClientCapabilities {
    return this.env.clientCapabilities;
  }

  get client(): AgentContext {
    return this.session.connection;
  }

  /** True once `session/cancel` (or a cancel of the prompt request) has arrived. */
  get cancelled(): boolean {
    return this.signal.aborted;
  }

  /** Sends one update and keeps it in the session's history. */
  send(update: SessionUpdate): Promise<void> {
    return this.session.send(update);
  }

  /** Streams one agent message in small chunks; pieces of one message share a `messageId`. */
  async say(text: string, delayMs = this.config.delayMs, messageId: string = randomUUID()): Promise<void> {
    const sent = await streamText((update) => this.send(update), "agent_message_chunk", text, {
      delayMs,
      signal: this.signal,
      messageId,
    });
    this.outputTokens += estimateTokens(text.slice(0, sent));
  }

  /** Streams one thought in small chunks. */
  async think(text: string): Promise<void> {
    const sent = await streamText((update) => this.send(update), "agent_thought_chunk", text, {
      delayMs: this.config.delayMs,
      signal: this.signal,
      messageId: randomUUID(),
    });
    this.outputTokens += estimateTokens(text.slice(0, sent));
  }

  /**
   * Answers the messages the user steered into this turn since the last call, as a model that
   * read them would; true when there were any.
   */
  async acknowledgeSteered(): Promise<boolean> {
    const steered = this.session.takeSteered();
    for (const prompt of steered) {
      const text = promptText(prompt).replace(/\s+/g, " ").trim();
      await this.say(`(You steered me: “${text.length > 80 ? `${text.slice(0, 79)}…` : text}”. Noted; I'll take that into account.)`);
    }
    return steered.length > 0;
  }

  /** Waits, or less if the turn is cancelled. */
  sleep(ms: number): Promise<void> {
    return sleep(ms, this.signal);
  }

  /** A fresh tool call id, readable in logs. */
  newToolCallId(prefix: string): string {
    return `${prefix}-${randomUUID().slice(0, 8)}`;
  }

  /**
   * Queues work that runs on after the turn has answered. It starts only once
   * the prompt response is written, so no update of the job can overtake it.
   */
  runAfterTurn(toolCallId: string, job: BackgroundJob): void {
    this.deferredJobs.push(this.session.prepareBackground(toolCallId, job));
  }

  /**
   * Starts the jobs queued with `runAfterTurn`; called after the response went out.
   * A cancelled turn still starts them, already aborted, so each one closes its tool call.
   */
  startDeferredJobs(): void {
    for (const handle of this.deferredJobs.splice(0)) {
      if (this.cancelled) handle.cancel();
      handle.start();
    }
  }

  /** For a turn that failed: starts its jobs already cancelled, so none leaves its tool call open. */
  abandonDeferredJobs(): void {
    for (const handle of this.deferredJobs.splice(0)) {
      handle.cancel();
      handle.start();
    }
  }
}
