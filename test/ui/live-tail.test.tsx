import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { LiveTail } from "../../src/ui/transcript/live-tail.js";
import { SPINNER_FRAMES } from "../../src/ui/render/theme.js";
import { FakeSession, plain, tick, until } from "./fake-session.js";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** An answer as an agent streams it: paragraphs, a wrapped long line, a list, a code block, a table, cut mid-word. */
const ANSWER = [
  "Here is ",
  "the plan",
  ":\n\n",
  "1. read the **config**",
  "\n2. run `npm test`",
  "\n3. fix what fails\n\n",
  "A long line that goes on and on past the width of the terminal so that it has to wrap, ",
  "and then some more words to wrap once again at the edge of the screen",
  ".\n\n```ts\nconst x",
  " = 1;\nconsole.log(x)",
  ";\n```\n\n",
  "| a | b |\n|---|---|\n| 1 ",
  "| 2 |\n\nDone",
  " with it.",
];

const render80 = (session: FakeSession) => render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />);

/** A frame without what moves with the clock (the spinner, the elapsed seconds). */
const still = (frame: string | undefined) =>
  (frame ?? "").replace(new RegExp(`[${SPINNER_FRAMES.join("")}]`, "g"), "*").replace(/ · \d+s/g, " · Ns");

describe("the live region's own frames", () => {
  it("draws a streaming answer without the App, each frame as the App draws the same state", async () => {
    const show = vi.spyOn(LiveTail.prototype, "show");
    const session = new FakeSession().open();
    session.prompt("go");
    const streaming = render80(session);
    session.chunk("");
    await until(() => expect(plain(streaming.lastFrame())).toContain("working"));
    for (const piece of ANSWER) {
      session.chunk(piece);
      await tick();
      // The App drawn whole for the same state, in a fresh run: what it prints goes to the
      // scrollback, and its live frame is the streaming one's. Both are awaited: Ink's frame
      // throttle may hold the streaming frame past one tick on a loaded machine.
      const fresh = new FakeSession();
      fresh.state = session.state;
      const whole = render80(fresh);
      await until(() => expect(still(streaming.lastFrame())).toBe(still(whole.lastFrame())));
      whole.unmount();
    }
    expect(show).toHaveBeenCalled();
  });

  it("a thought streams the same way, and what ends it is drawn by the App", async () => {
    const show = vi.spyOn(LiveTail.prototype, "show");
    const session = new FakeSession().open();
    session.prompt("go");
    const streaming = render80(session);
    await until(() => expect(plain(streaming.lastFrame())).toContain("working"));
    for (const text of ["Thinking about ", "the files ", "that changed"]) {
      session.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text } });
      await tick();
    }
    await until(() => expect(plain(streaming.lastFrame())).toContain("that changed"));
    expect(show).toHaveBeenCalled();
    session.chunk("The answer.");
    await until(() => expect(plain(streaming.lastFrame())).toContain("The answer."));
    session.respond("t1");
    session.emit({ type: "settled" });
    await until(() => expect(plain(streaming.lastFrame())).not.toContain("working"));
    expect(plain(streaming.frames.join("\n"))).toContain("The answer.");
  });
});
