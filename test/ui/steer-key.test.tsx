import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { FakeSession, plain, tick, until } from "./fake-session.js";

afterEach(() => cleanup());

const CTRL_S = "\x13";

function renderApp(session: FakeSession) {
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />);
  return { ...view, frame: () => plain(view.lastFrame()), seen: () => plain(view.frames.join("\n")) };
}

async function type(stdin: { write(s: string): void }, text: string) {
  stdin.write(text);
  await tick();
}

describe("Ctrl-S: steer or queue", () => {
  it("names the key while a turn runs, steers the typed message into it, and shows it marked steered in the turn", async () => {
    const session = new FakeSession();
    session.emit({ type: "agent_ready", info: { name: "fake-agent", version: "1" }, steering: true });
    session.open();
    const turnId = session.prompt("write the report");
    session.chunk("Working on it.");
    const { stdin, frame, seen } = renderApp(session);
    await tick();
    await until(() => expect(frame()).toMatch(/working · \ds · esc to cancel · ctrl-s to steer/));
    await type(stdin, "add a summary too");
    await type(stdin, CTRL_S);
    await until(() => expect(session.calls).toContainEqual({ intent: "steer", args: ["add a summary too", undefined] }));
    await until(() => expect(frame()).not.toContain("› add a summary too"));
    expect(session.state.queue).toEqual([]);
    // The orchestrator folds the agent's "injected" as this event.
    session.emit({ type: "steered", turnId, prompt: [{ type: "text", text: "add a summary too" }] });
    await until(() => expect(seen()).toContain("› (steered) add a summary too"));
  });

  it("queues the message with a note when the agent does not take steering, and gives no hint", async () => {
    const session = new FakeSession().open();
    session.prompt("write the report");
    const { stdin, frame } = renderApp(session);
    await tick();
    await until(() => expect(frame()).toMatch(/working · \ds · esc to cancel/));
    expect(frame()).not.toContain("ctrl-s");
    await type(stdin, "later");
    await type(stdin, CTRL_S);
    await until(() => expect(session.calls).toContainEqual({ intent: "send", args: ["later", undefined] }));
    expect(session.intents()).not.toContain("steer");
    await until(() =>
      expect(frame()).toContain("fake does not take steered messages (no _session/steering): queued, sent when the turn ends"),
    );
  });

  it("sends as Enter does when nothing runs", async () => {
    const session = new FakeSession();
    session.emit({ type: "agent_ready", steering: true });
    session.open();
    const { stdin } = renderApp(session);
    await tick();
    await type(stdin, "hello");
    await type(stdin, CTRL_S);
    await until(() => expect(session.calls).toContainEqual({ intent: "send", args: ["hello", undefined] }));
    expect(session.intents()).not.toContain("steer");
  });

  it("steers a queued message being edited instead of leaving it in the queue", async () => {
    const session = new FakeSession();
    session.emit({ type: "agent_ready", steering: true });
    session.open();
    session.prompt("first");
    session.emit({ type: "queue_added", id: "q9", text: "second" });
    const { stdin, frame } = renderApp(session);
    await tick();
    await type(stdin, "\x1b[A");
    await type(stdin, "e");
    await until(() => expect(frame()).toContain("edit 1 ›"));
    await type(stdin, CTRL_S);
    await until(() => expect(session.calls).toContainEqual({ intent: "steer", args: ["second", undefined] }));
    expect(session.calls).toContainEqual({ intent: "removeQueued", args: ["q9"] });
    expect(session.state.queue).toEqual([]);
  });
});
