import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

afterEach(() => cleanup());

function renderApp(session: FakeSession) {
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={33} />);
  return { ...view, frame: () => plain(view.lastFrame()) };
}

async function type(stdin: { write(s: string): void }, text: string) {
  stdin.write(text);
  await tick();
}

/** A busy session with three messages queued, none selected. */
async function queueThree() {
  // Folded in place: a handler that reads the state after its intent sees the change (the orchestrator's did).
  const session = new FakeSession(true).open();
  session.prompt("long task");
  const view = renderApp(session);
  await tick();
  for (const text of ["one", "two", "three"]) {
    await type(view.stdin, text);
    await type(view.stdin, KEY.enter);
  }
  await until(() => expect(view.frame()).toContain("3. three"));
  return { session, ...view };
}

/** A busy session with three messages queued, the queue's last one selected. */
async function threeQueued() {
  const view = await queueThree();
  await type(view.stdin, KEY.up);
  await until(() => expect(view.frame()).toContain("› 3. three"));
  return view;
}

describe("the queue after d removes a message", () => {
  it("stays on the message that took its place, and e edits that one", async () => {
    const { session, stdin, frame } = await threeQueued();
    await type(stdin, "d");
    await until(() => expect(frame()).not.toContain("three"));
    await until(() => expect(frame()).toContain("› 2. two"));
    await type(stdin, "e");
    await until(() => expect(frame()).toContain("edit 2 › two"));
    expect(session.state.queue.map((m) => m.text)).toEqual(["one", "two"]);
  });

  it("removing from the middle selects the next message, still in the queue", async () => {
    const { stdin, frame } = await threeQueued();
    await type(stdin, KEY.up);
    await until(() => expect(frame()).toContain("› 2. two"));
    await type(stdin, "d");
    await until(() => expect(frame()).not.toContain("two"));
    await until(() => expect(frame()).toContain("› 2. three"));
    await type(stdin, "d");
    await until(() => expect(frame()).not.toContain("three"));
    await until(() => expect(frame()).toContain("› 1. one"));
    await type(stdin, "e");
    await until(() => expect(frame()).toContain("edit 1 › one"));
  });
});

describe("keys that move the focus, and the keys after them in the same read (tmux send-keys, a paste)", () => {
  it("↑ then d in one read: ↑ selects the last queued message and d removes it; nothing lands in the input", async () => {
    const { session, ...view } = await queueThree();
    await type(view.stdin, KEY.up + "d");
    await until(() => expect(session.state.queue.map((m) => m.text)).toEqual(["one", "two"]));
    await until(() => expect(view.frame()).toContain("› 2. two"));
    expect(view.frame()).not.toMatch(/^› d/m);
  });
});
