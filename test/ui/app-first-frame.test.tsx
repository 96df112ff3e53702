import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { renderLibsLoaded } from "../../src/ui/render/render-libs.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

/** Highlighting (the largest of the transcript's libraries) loads only when the test lets it. */
let letLoad!: () => void;
const loadAllowed = new Promise<void>((resolve) => (letLoad = resolve));
vi.mock("highlight.js", async (importOriginal) => {
  await loadAllowed;
  return importOriginal();
});

afterEach(() => cleanup());

describe("the App's first frame", () => {
  it("takes keys while the transcript's libraries load, and draws the transcript once they have", async () => {
    const session = new FakeSession();
    const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} bracketedPaste />);
    const frame = () => plain(view.lastFrame());
    await until(() => expect(frame()).toContain("type away: messages wait until the agent is ready"));
    view.stdin.write("hello");
    await until(() => expect(frame()).toContain("› hello"));
    view.stdin.write(KEY.enter);
    await tick();
    expect(session.calls[0]).toEqual({ intent: "send", args: ["hello", undefined] });
    // Until the session opens, the message waits in the queue (the fake queues it), and the queue says for what.
    await until(() => expect(frame()).toContain("queued: sent when the session opens"));

    session.open();
    session.prompt("hello");
    session.chunk("An **answer**.");
    await tick();
    expect(renderLibsLoaded()).toBe(false);
    expect(frame()).not.toContain("An answer.");
    letLoad();
    await until(() => expect(frame()).toContain("An answer."));
    // The prompt is settled: it went to the scrollback, above the live region.
    expect(plain(view.frames.join("\n"))).toContain("› hello");
  });
});
