import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import React from "react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

afterEach(() => cleanup());

function renderApp(session: FakeSession, extra: Partial<React.ComponentProps<typeof App>> = {}) {
  const quits: number[] = [];
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} onQuit={() => quits.push(1)} {...extra} />);
  // `frame` is the live screen; `seen` is everything written, the scrollback included.
  return { ...view, quits, frame: () => plain(view.lastFrame()), seen: () => plain(view.frames.join("\n")) };
}

async function type(stdin: { write(s: string): void }, text: string) {
  stdin.write(text);
  await tick();
}

describe("the app", () => {
  it("sends what is typed and shows the answer as it streams, then prints it", async () => {
    const session = new FakeSession().open();
    const { stdin, frame, seen } = renderApp(session);
    await tick();
    await until(() => expect(frame()).toContain("Fake Agent · Code (shift+tab) · /tmp/project"));
    await type(stdin, "hello there");
    await until(() => expect(frame()).toContain("› hello there"));
    await type(stdin, KEY.enter);
    expect(session.calls[0]).toEqual({ intent: "send", args: ["hello there", undefined] });
    await until(() => expect(frame()).toMatch(/working · \ds · esc to cancel/));
    session.chunk("Hi! ");
    await tick();
    await until(() => expect(frame()).toContain("Hi!"));
    session.chunk("Streaming **works**.");
    await tick();
    await until(() => expect(frame()).toContain("Hi! Streaming works."));
    session.respond("t1");
    session.emit({ type: "settled" });
    await tick();
    await until(() => expect(frame()).not.toContain("working"));
    await until(() => expect(seen()).toContain("› hello there"));
    await until(() => expect(seen()).toContain("Hi! Streaming works."));
  });

  it("shows a permission prompt that takes the keys, and answers it", async () => {
    const session = new FakeSession().open();
    session.prompt("delete the build");
    session.askPermission("k1", "call-1", "rm -rf build/");
    const { stdin, frame } = renderApp(session);
    await tick();
    await until(() => expect(frame()).toContain("Permission"));
    await until(() => expect(frame()).toContain("rm -rf build/"));
    await until(() => expect(frame()).toContain("Allow"));
    await until(() => expect(frame()).toContain("waiting for permission (1)"));
    await until(() => expect(frame()).toContain("esc cancels the turn · tab types a message instead"));
    await type(stdin, "1");
    await until(() => expect(session.calls).toContainEqual({ intent: "answerPermission", args: ["k1", "yes"] }));
    await until(() => expect(frame()).not.toContain("Permission"));
  });

  it("Esc on a permission prompt cancels the turn; Tab lets the user type meanwhile", async () => {
    const session = new FakeSession().open();
    session.prompt("go");
    session.askPermission("k1", "call-1", "rm -rf build/");
    const { stdin, frame } = renderApp(session);
    await tick();
    await type(stdin, KEY.tab);
    await until(() => expect(frame()).toContain("tab back to the permission prompt"));
    await type(stdin, "later");
    await until(() => expect(frame()).toContain("› later"));
    await type(stdin, KEY.tab);
    await until(() => expect(frame()).toContain("esc cancels the turn · tab types a message instead"));
    await type(stdin, KEY.escape);
    await until(() => expect(session.intents()).toContain("cancel"));
  });

  it("queues messages typed while busy, and edits and removes them through the session", async () => {
    const session = new FakeSession().open();
    session.prompt("long task");
    const { stdin, frame } = renderApp(session);
    await tick();
    await type(stdin, "first follow-up");
    await type(stdin, KEY.enter);
    await type(stdin, "second follow-up");
    await type(stdin, KEY.enter);
    await until(() => expect(frame()).toContain("1. first follow-up"));
    await until(() => expect(frame()).toContain("2. second follow-up"));
    await until(() => expect(frame()).toContain("↑ on an empty input to edit or remove"));

    await type(stdin, KEY.up);
    await until(() => expect(frame()).toContain("› 2. second follow-up"));
    await until(() => expect(frame()).toContain("enter/e edit · d remove · esc back"));
    await type(stdin, "d");
    await until(() => expect(session.calls).toContainEqual({ intent: "removeQueued", args: [expect.any(String)] }));
    await until(() => expect(frame()).not.toContain("second follow-up"));

    await type(stdin, KEY.up);
    await type(stdin, KEY.enter);
    await until(() => expect(frame()).toContain("edit 1 › first follow-up"));
    await until(() => expect(frame()).toContain("(editing)"));
    await type(stdin, ", please");
    await type(stdin, KEY.enter);
    const id = session.state.queue[0].id;
    await until(() => expect(session.calls).toContainEqual({ intent: "editQueued", args: [id, "first follow-up, please"] }));
    await until(() => expect(frame()).toContain("1. first follow-up, please"));
    await until(() => expect(frame()).not.toContain("(editing)"));
  });

  it("Esc cancels a busy turn", async () => {
    const session = new FakeSession().open();
    session.prompt("slow");
    const { stdin } = renderApp(session);
    await tick();
    await type(stdin, KEY.escape);
    await tick(30);
    expect(session.intents()).toEqual(["cancel"]);
  });

  it("Ctrl-C once clears the input and warns; twice quits", async () => {
    const session = new FakeSession().open();
    const { stdin, frame, quits } = renderApp(session);
    await tick();
    await type(stdin, "half a thought");
    await type(stdin, KEY.ctrlC);
    await until(() => expect(frame()).toContain("press Ctrl-C again to quit"));
    await until(() => expect(frame()).not.toContain("half a thought"));
    expect(quits).toEqual([]);
    await type(stdin, KEY.ctrlC);
    expect(quits).toEqual([1]);
  });

  it("runs conch's own commands and cycles modes with Shift+Tab", async () => {
    const session = new FakeSession().open();
    const { stdin, frame, seen } = renderApp(session);
    await tick();
    await type(stdin, "/mode");
    await type(stdin, KEY.enter);
    await tick();
    await until(() => expect(frame()).toContain("modes (shift+tab cycles):"));
    await until(() => expect(frame()).toContain("● Code (code)"));
    await type(stdin, KEY.escape);
    await until(() => expect(frame()).not.toContain("modes (shift+tab cycles):"));
    await type(stdin, "/mode ask");
    await type(stdin, KEY.enter);
    await until(() => expect(session.calls).toContainEqual({ intent: "setMode", args: ["ask"] }));
    await type(stdin, KEY.shiftTab);
    expect(session.calls.filter((c) => c.intent === "setMode")).toHaveLength(2);
    await type(stdin, "/help");
    await type(stdin, KEY.enter);
    // Longer than the screen: printed whole into the scrollback, not a box that hides its end.
    await until(() => expect(seen()).toContain("Esc · cancel the turn"));
    expect(frame()).not.toMatch(/… \d+ more lines/);
    // Agent commands go to the agent as prompt text.
    session.update({ sessionUpdate: "available_commands_update", availableCommands: [{ name: "review", description: "review it" }] });
    await tick();
    await type(stdin, "/review main");
    await type(stdin, KEY.enter);
    await until(() => expect(session.calls).toContainEqual({ intent: "send", args: ["/review main", undefined] }));
  });

  it("attaches @-mentioned files as resource links and says so", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "conch-app-"));
    writeFileSync(path.join(root, "README.md"), "hi");
    const session = new FakeSession().open({ cwd: root });
    const { stdin, frame } = renderApp(session, { cwd: root });
    await tick();
    await type(stdin, "summarise @READ");
    // The file walk is asynchronous; the open menu refreshes as results arrive.
    await tick(250);
    await until(() => expect(frame()).toContain("@README.md"));
    await type(stdin, KEY.tab);
    await type(stdin, KEY.enter);
    expect(session.calls[0]).toEqual({
      intent: "send",
      args: [
        "summarise @README.md",
        [
          { type: "text", text: "summarise @README.md" },
          { type: "resource_link", uri: pathToFileURL(path.join(root, "README.md")).href, name: "README.md" },
        ],
      ],
    });
    await until(() => expect(frame()).toContain("@README.md: sent as a link"));
  });

  it("keeps pasted lines in the editor and breaks lines on Alt+Enter", async () => {
    const session = new FakeSession().open();
    const { stdin, frame } = renderApp(session, { bracketedPaste: true });
    await tick();
    await type(stdin, "\x1b[200~line one\rline two\x1b[201~");
    await tick();
    expect(session.calls).toEqual([]);
    await type(stdin, KEY.altEnter);
    await type(stdin, "line three");
    await until(() => expect(frame()).toContain("› line one"));
    await until(() => expect(frame()).toContain("line two"));
    await type(stdin, KEY.enter);
    expect(session.calls[0].args[0]).toBe("line one\nline two\nline three");
  });

  it("shows a start failure with the agent's stderr and a hint, not a stack trace", async () => {
    const session = new FakeSession();
    const { frame } = renderApp(session);
    await tick();
    await until(() => expect(frame()).toContain("starting fake…"));
    // What the orchestrator records when the agent dies before it answers initialize.
    session.emit({
      type: "failed",
      kind: "agent-start",
      message: "agent fake exited with code 1 before it answered initialize",
      stderrTail: "No API key",
    });
    await tick();
    await until(() =>
      expect(frame()).toContain("✗ agent fake exited with code 1 before it answered initialize\n  No API key\n  /restart to try again"),
    );
    await until(() => expect(frame()).not.toContain("at "));
  });
});

describe("questions and logins in the app", () => {
  it("shows a question from the agent as a form and sends the answer", async () => {
    const session = new FakeSession().open();
    session.prompt("scaffold");
    session.emit({
      type: "question_asked",
      key: "agent:9",
      request: {
        sessionId: "s1",
        mode: "form",
        message: "Project name?",
        requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] },
      } as never,
    });
    const app = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={1} />);
    await until(() => expect(app.lastFrame()).toContain("Project name?"));
    app.stdin.write("x");
    await until(() => expect(app.lastFrame()).toContain("Name *: x"));
    app.stdin.write("\t");
    await until(() => expect(app.lastFrame()).toContain("› [ submit ]"));
    app.stdin.write("\r");
    await until(() =>
      expect(session.calls.find((c) => c.intent === "answerQuestion")?.args).toEqual([
        "agent:9",
        { action: "accept", content: { name: "x" } },
      ]),
    );
    app.unmount();
  });

  it("shows the agent's login methods and logs in with the chosen one", async () => {
    const session = new FakeSession();
    session.emit({
      type: "auth_required",
      methods: [{ id: "a", name: "Agent login" }, { id: "t", name: "Terminal login", type: "terminal", args: ["--login"] } as never],
      message: "Authentication required",
    });
    const app = render(
      <App session={session} agentName="fake" agentCommand={{ command: "fake-agent", args: [] }} cwd="/tmp/project" frameMs={1} />,
    );
    await until(() => expect(app.lastFrame()).toContain("needs you to log in"));
    expect(app.lastFrame()).toContain("fake-agent --login");
    app.stdin.write("2");
    await until(() => expect(session.calls.find((c) => c.intent === "authenticate")?.args).toEqual(["t"]));
    app.unmount();
  });
});
