import { renderKeyed as render } from "../render-keyed.js";
import { describe, expect, it, vi } from "vitest";
import { QuestionForm } from "../../../src/ui/components/question-form.js";
import { formContent, formReducer, initialForm } from "../../../src/ui/decisions/question-form-state.js";
import type { PendingQuestion } from "../../../src/session/state.js";

const request = {
  sessionId: "s",
  mode: "form",
  message: "How should I set up the project?",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Project name", minLength: 1 },
      language: { type: "string", title: "Language", enum: ["typescript", "python", "rust"] },
      tests: { type: "boolean", title: "Add tests?", default: true },
      workers: { type: "integer", title: "Workers" },
    },
    required: ["name", "language"],
  },
} as unknown as PendingQuestion["request"];

const question: PendingQuestion = { key: "agent:1", request, askedAt: 0 };
const tick = () => new Promise((r) => setTimeout(r, 20));

describe("the question form (elicitation/create)", () => {
  it("builds fields from the schema with defaults, and validates required and typed fields", () => {
    let form = initialForm(request);
    expect(form.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["name", "text", true],
      ["language", "choice", true],
      ["tests", "boolean", false],
      ["workers", "integer", false],
    ]);
    expect(formContent(form)).toEqual({ error: "Project name is required" });
    form = formReducer(form, { type: "type", text: "conch" });
    form = formReducer(form, { type: "next" });
    form = formReducer(form, { type: "down" });
    form = formReducer(form, { type: "next" });
    form = formReducer(form, { type: "toggle" });
    form = formReducer(form, { type: "next" });
    form = formReducer(form, { type: "type", text: "2.5" });
    expect(formContent(form)).toEqual({ error: "Workers must be a whole number" });
    form = formReducer(form, { type: "backspace" });
    form = formReducer(form, { type: "backspace" });
    expect(formContent(form)).toEqual({ content: { name: "conch", language: "python", tests: false, workers: 2 } });
  });

  it("shows the question and its fields, and sends what the person typed on submit", async () => {
    const onAnswer = vi.fn();
    const { lastFrame, stdin } = render(<QuestionForm questions={[question]} width={80} isActive onAnswer={onAnswer} />);
    expect(lastFrame()).toContain("How should I set up the project?");
    expect(lastFrame()).toContain("Project name *");
    expect(lastFrame()).toContain("typescript");
    for (const ch of "demo") {
      stdin.write(ch);
      await tick();
    }
    for (let i = 0; i < 4; i++) {
      stdin.write("\t");
      await tick();
    }
    stdin.write("\r");
    await tick();
    expect(onAnswer).toHaveBeenCalledWith("agent:1", { action: "accept", content: { name: "demo", language: "typescript", tests: true } });
  });

  it("text that arrives with its Enter in one read (fast typing, a paste) keeps no control character, and the Enter moves on", async () => {
    const onAnswer = vi.fn();
    const { stdin } = render(<QuestionForm questions={[question]} width={80} isActive onAnswer={onAnswer} />);
    stdin.write("demo\r");
    await tick();
    // The Enter went to the next field: three more take the focus to submit, and the last sends.
    for (let i = 0; i < 4; i++) {
      stdin.write("\r");
      await tick();
    }
    expect(onAnswer).toHaveBeenCalledWith("agent:1", { action: "accept", content: { name: "demo", language: "typescript", tests: true } });
  });

  it("ctrl-d declines", async () => {
    const onAnswer = vi.fn();
    const { stdin } = render(<QuestionForm questions={[question]} width={80} isActive onAnswer={onAnswer} />);
    stdin.write("\x04");
    await tick();
    expect(onAnswer).toHaveBeenCalledWith("agent:1", { action: "decline" });
  });

  it("url mode shows the link and accepts on enter", async () => {
    const onAnswer = vi.fn();
    const url = {
      key: "agent:2",
      askedAt: 0,
      request: { sessionId: "s", mode: "url", message: "Log in to the service", url: "https://example.com/auth", elicitationId: "e1" },
    } as unknown as PendingQuestion;
    const { lastFrame, stdin } = render(<QuestionForm questions={[url]} width={80} isActive onAnswer={onAnswer} />);
    expect(lastFrame()).toContain("https://example.com/auth");
    stdin.write("\r");
    await tick();
    expect(onAnswer).toHaveBeenCalledWith("agent:2", { action: "accept" });
  });
});
