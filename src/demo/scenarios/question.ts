import type { CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { Scenario } from "./scenario.js";

/**
 * `question`: asks the person through `elicitation/create` (form mode: a few typed fields), then
 * says what came back. Needs a client that advertised `elicitation.form`.
 */
export const questionScenario: Scenario = {
  name: "question",
  keywords: ["question", "ask"],
  summary: "asks you a question through a form (elicitation/create) and says what you answered",
  async run(turn) {
    if (!turn.capabilities.elicitation?.form) {
      await turn.say("Your client did not advertise `elicitation.form`, so I cannot ask you anything.");
      return;
    }
    await turn.say("Before I scaffold the project, a few questions.");
    let response: CreateElicitationResponse;
    try {
      response = await turn.client.request("elicitation/create", {
        sessionId: turn.session.id,
        mode: "form",
        message: "How should I set up the project?",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", title: "Project name", description: "lowercase, no spaces", minLength: 1 },
            language: { type: "string", title: "Language", enum: ["typescript", "python", "rust"] },
            tests: { type: "boolean", title: "Add tests?", default: true },
          },
          required: ["name", "language"],
        },
      } as never);
    } catch (error) {
      await turn.say(`The question failed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (turn.cancelled) return;
    if (response.action === "accept") {
      await turn.say(`You answered: \`${JSON.stringify((response as { content?: unknown }).content ?? {})}\`.`);
    } else {
      await turn.say(`You chose **${response.action}**, so I'll leave it.`);
    }
  },
};
