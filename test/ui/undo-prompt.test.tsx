import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import type { UndoPlan } from "../../src/session/undo-plan.js";
import { App } from "../../src/ui/app/app.js";
import { conchCommandOf } from "../../src/ui/commands/conch-commands.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

afterEach(() => cleanup());

function renderApp(session: FakeSession) {
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />);
  return { ...view, frame: () => plain(view.lastFrame()) };
}

async function type(stdin: { write(s: string): void }, text: string) {
  stdin.write(text);
  await tick();
}

const PLAN: UndoPlan = {
  turnId: "t3",
  label: "fix the tests",
  files: [
    {
      path: "/tmp/project/a.ts",
      shown: "a.ts",
      action: "restore",
      now: { text: "const a = 2;\n" },
      restored: { text: "const a = 1;\n" },
      bytes: Buffer.from("const a = 1;\n"),
      expect: "x",
    },
    { path: "/tmp/project/new.ts", shown: "new.ts", action: "delete", now: { text: "export {};\n" }, expect: "y" },
  ],
  skipped: [{ path: "/tmp/project/b.ts", shown: "b.ts", reason: "it changed since the agent wrote it (by you or another program)" }],
  unseen: ["the turn ran a command (`npm test`): what it changed is not undone"],
};

describe("/undo", () => {
  it("shows the diff of what will be put back, the file to delete, what is left and why, and asks", async () => {
    const session = new FakeSession().open();
    session.undoAnswer = { kind: "plan", plan: PLAN };
    const { stdin, frame } = renderApp(session);
    await tick();
    await type(stdin, "/undo 3");
    await type(stdin, KEY.enter);
    await until(() => expect(frame()).toContain("Undo turn t3 · fix the tests"));
    expect(session.calls).toContainEqual({ intent: "planUndo", args: ["3"] });
    const f = frame();
    expect(f).toContain("- const a = 2;");
    expect(f).toContain("+ const a = 1;");
    expect(f).toContain("delete new.ts (the turn created it)");
    expect(f).toContain("left b.ts: it changed since the agent wrote it (by you or another program)");
    expect(f).toContain("the turn ran a command (`npm test`): what it changed is not undone");
    expect(f).toContain("y put these 2 files back (one is deleted) · n or esc leave them");
    // The prompt has the keys: typing does not reach the input.
    await type(stdin, "x");
    expect(frame()).not.toContain("› x");
    await type(stdin, "y");
    await until(() => expect(session.intents()).toContain("applyUndo"));
    await until(() => expect(frame()).not.toContain("Undo turn t3"));
  });

  it("n leaves the files as they are", async () => {
    const session = new FakeSession().open();
    session.undoAnswer = { kind: "plan", plan: PLAN };
    const { stdin, frame } = renderApp(session);
    await tick();
    await type(stdin, "/undo");
    await type(stdin, KEY.enter);
    await until(() => expect(frame()).toContain("Undo turn t3"));
    await type(stdin, "n");
    await until(() => expect(frame()).not.toContain("Undo turn t3"));
    expect(session.intents()).not.toContain("applyUndo");
  });

  it("shows what the session says when there is nothing to undo, and /help names the command", async () => {
    const session = new FakeSession().open();
    session.undoAnswer = { kind: "message", lines: ["no turn has edits that conch can undo"] };
    const { stdin, frame } = renderApp(session);
    await tick();
    await type(stdin, "/undo");
    await type(stdin, KEY.enter);
    await until(() => expect(frame()).toContain("no turn has edits that conch can undo"));
  });

  it("/help names the command, and the keys of the undo prompt and of steering", () => {
    const shown: string[] = [];
    conchCommandOf("/help")!.command.run("", {
      port: new FakeSession(),
      state: new FakeSession().open().state,
      show: (lines) => shown.push(...[lines].flat()),
      clearScreen() {},
      toggleExpanded: () => false,
      restart() {},
      quit() {},
    });
    expect(shown).toContain(
      "/undo [turn | list] · put back the files the last turn (or turn N) changed, whoever changed them, after showing the diff; list: the turns with changes",
    );
    expect(shown).toContain("y / n, Esc · put the files shown back, or leave them as they are (in the undo prompt)");
    expect(shown.some((l) => l.startsWith("Ctrl-S · while a turn runs: send the message into it (steer)"))).toBe(true);
  });
});
