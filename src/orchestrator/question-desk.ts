import type { CreateElicitationRequest, CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { SessionEventInput } from "../session/events.js";

/**
 * Questions from the agent (`elicitation/create`), each pending on its own like permissions.
 * Without a person to ask (print mode), every question is declined at once.
 */
export class QuestionDesk {
  private pending = new Map<string, (r: CreateElicitationResponse) => void>();

  constructor(
    private readonly canAsk: boolean,
    private readonly emit: (ev: SessionEventInput) => void,
  ) {}

  ask(request: CreateElicitationRequest, key: string, signal: AbortSignal): Promise<CreateElicitationResponse> {
    this.emit({ type: "question_asked", key, request });
    if (!this.canAsk) {
      const response: CreateElicitationResponse = { action: "decline" };
      this.emit({ type: "question_answered", key, response, source: "policy" });
      return Promise.resolve(response);
    }
    return new Promise((resolve) => {
      this.pending.set(key, resolve);
      signal.addEventListener("abort", () => this.respond(key, { action: "cancel" }, "agent"));
    });
  }

  /** The person's answer to a question from the agent (`elicitation/create`): accept with content, decline, or cancel. */
  answerQuestion(key: string, response: CreateElicitationResponse): void {
    this.respond(key, response, "user");
  }

  /** The turn was cancelled: every open question is cancelled too. */
  cancelAll(): void {
    for (const key of [...this.pending.keys()]) this.respond(key, { action: "cancel" }, "cancel");
  }

  drop(): void {
    for (const resolve of this.pending.values()) resolve({ action: "cancel" });
    this.pending.clear();
  }

  /** Answers the agent's question once, from whichever source comes first; later ones find it gone. */
  private respond(key: string, response: CreateElicitationResponse, source: "user" | "cancel" | "agent"): void {
    const resolve = this.pending.get(key);
    if (!resolve) return;
    this.pending.delete(key);
    this.emit({ type: "question_answered", key, response, source });
    resolve(response);
  }
}
