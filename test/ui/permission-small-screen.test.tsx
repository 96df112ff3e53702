import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "ink-testing-library";
import { FakeSession, until } from "./fake-session.js";
import { renderAt } from "./render-at.js";

afterEach(() => cleanup());

/** The demo agent's `permission` request: a command, why, and the four kinds of option. */
function askToRun(session: FakeSession, key: string, command: string): void {
  const request: RequestPermissionRequest = {
    sessionId: "s1",
    toolCall: {
      toolCallId: `call-${key}`,
      title: command,
      kind: "execute",
      status: "pending",
      rawInput: { command },
      content: [{ type: "content", content: { type: "text", text: "Deletes the build output folder." } }],
    },
    options: [
      { optionId: "once", name: "Allow once", kind: "allow_once" },
      { optionId: "always", name: "Always allow", kind: "allow_always" },
      { optionId: "no", name: "Reject", kind: "reject_once" },
      { optionId: "never", name: "Always reject", kind: "reject_always" },
    ],
  };
  session.emit({ type: "permission_asked", key, request });
}

// The frame is cut to the screen from its top: the prompt must fit the rows the rest of the chrome
// leaves it, or its question (what the user approves) is what the cut takes.
describe("a permission prompt on a small terminal", () => {
  for (const [columns, rows] of [
    [40, 14],
    [60, 10],
  ] as const) {
    it(`shows its question, its command and its options at ${columns}x${rows}`, async () => {
      const session = new FakeSession().open();
      session.prompt("delete the build");
      askToRun(session, "k1", "rm -rf build/");
      const { screen } = renderAt(session, columns, rows);
      await until(() => expect(screen()).toContain("waiting for permission (1)"));
      await until(() => {
        const shown = screen();
        expect(shown).toContain("Permission");
        expect(shown).toContain("rm -rf build/");
        expect(shown).toContain("$ rm -rf build/");
        expect(shown).toMatch(/1 y\s+Allow once/);
        expect(shown).toMatch(/4 r\s+Always reject/);
      });
    });
  }

  it("with two requests pending, shows the first one's question and says two wait", async () => {
    const session = new FakeSession().open();
    session.prompt("clean up");
    askToRun(session, "k1", "rm -rf build/");
    askToRun(session, "k2", "git push --force");
    const { screen } = renderAt(session, 40, 14);
    await until(() => expect(screen()).toContain("waiting for permission (2)"));
    await until(() => {
      const shown = screen();
      expect(shown).toContain("Permission");
      expect(shown).toContain("rm -rf build/");
      expect(shown).not.toContain("git push");
      expect(shown).toContain("$ rm -rf build/");
      expect(shown).toMatch(/1 y\s+Allow once/);
      expect(shown).toMatch(/4 r\s+Always reject/);
    });
  });

  // Below about 10 rows the rows under the prompt (the status line, the editor, the status bar) would
  // leave it no room for what it asks: they give way while the prompt has the keys.
  for (const [columns, rows] of [
    [30, 10],
    [30, 8],
    [30, 7],
  ] as const) {
    it(`at ${columns}x${rows} the chrome under it gives way, and the question and command stay`, async () => {
      const session = new FakeSession().open();
      session.prompt("delete the build");
      askToRun(session, "k1", "rm -rf build/");
      const { screen } = renderAt(session, columns, rows);
      await until(() => {
        const shown = screen();
        expect(shown).toContain("Permission $ execute rm -rf");
        expect(shown).toContain("$ rm -rf build/");
        expect(shown).toMatch(/1 y\s+Allow once/);
        expect(shown).not.toContain("waiting for permission");
      });
    });
  }

  it("at 30x10, tab to type a message brings the editor back", async () => {
    const session = new FakeSession().open();
    session.prompt("delete the build");
    askToRun(session, "k1", "rm -rf build/");
    const view = renderAt(session, 30, 10);
    await until(() => expect(view.screen()).toContain("$ rm -rf build/"));
    view.stdin.write("\t");
    await until(() => expect(view.screen()).toContain("waiting for permission"));
  });
});
