import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "ink-testing-library";
import { FakeSession, until } from "./fake-session.js";
import { renderAt } from "./render-at.js";

afterEach(() => cleanup());

/** The demo agent's `question`: three fields, two of them required. */
function askSetup(session: FakeSession): void {
  session.emit({
    type: "question_asked",
    key: "agent:9",
    request: {
      sessionId: "s1",
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
    } as never,
  });
}

// The frame is cut to the screen from its top: the form must fit the rows the rest of the chrome
// leaves it, or the question (what the person answers) is what the cut takes.
describe("a question form on a small terminal", () => {
  for (const [columns, rows] of [
    [40, 14],
    [60, 10],
    [30, 9],
    [30, 6],
  ] as const) {
    it(`shows the question and the focused field at ${columns}x${rows}, and the next field after tab`, async () => {
      const session = new FakeSession().open();
      session.prompt("scaffold");
      askSetup(session);
      const view = renderAt(session, columns, rows);
      await until(() => {
        const shown = view.screen();
        expect(shown).toContain("? How should I set up the");
        expect(shown).toContain("› Project name *:");
      });
      view.stdin.write("\t");
      await until(() => {
        const shown = view.screen();
        expect(shown).toContain("? How should I set up the");
        expect(shown).toContain("› Language *:");
        expect(shown).toContain("(•) typescript");
      });
    });
  }

  it("at a normal size shows the whole form in its border, with its keys", async () => {
    const session = new FakeSession().open();
    session.prompt("scaffold");
    askSetup(session);
    const { screen } = renderAt(session, 100, 30);
    await until(() => {
      const shown = screen();
      expect(shown).toContain("╭");
      expect(shown).toContain("? How should I set up the project?");
      expect(shown).toContain("Add tests?: [x] yes");
      expect(shown).toContain("[ submit ]");
      expect(shown).toContain("ctrl-d decline");
    });
  });
});
