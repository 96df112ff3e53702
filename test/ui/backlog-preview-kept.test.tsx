import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { loadRenderLibs } from "../../src/ui/render/render-libs.js";
import { FakeSession, plain, tick, until } from "./fake-session.js";

beforeAll(() => loadRenderLibs());
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

// A transcript too short to count as a backlog can still take more than a slice to print (a slow
// machine): the rest then goes out as a backlog, under a preview of the newest rows. A frame drawn
// meanwhile must keep that preview, or the newest rows leave the screen before they are printed.
describe("a backlog that begins when a slice runs out of time", () => {
  it("keeps its preview on screen until its rows are printed", async () => {
    const session = new FakeSession().open();
    for (let i = 1; i <= 12; i++) {
      const turnId = session.prompt(`question ${i}`);
      session.chunk(`Answer number ${i}.`);
      session.respond(turnId);
    }
    // Every reading of the clock is 5 ms on: a slice (8 ms) prints one or two items, then runs out.
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => (now += 5));
    const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />);
    await until(() => expect(plain(view.lastFrame())).toContain("Answer number 12."));
    const from = view.frames.length;
    // A new state while the rest prints: the App renders again.
    session.emit({ type: "settled" });
    await until(() => expect(plain(view.frames.join("\n"))).toContain("› question 12"), 5_000);
    await tick(100);
    // Every frame since (a write with the status bar; the others are rows printed above it) shows
    // the newest answer, in its preview or printed above it.
    const writes = view.frames.slice(from).map(plain);
    const isFrame = (w: string) => w.includes("Fake Agent");
    const printed = (i: number) => writes.slice(0, i).some((w) => !isFrame(w) && w.includes("Answer number 12."));
    const lost = writes.findIndex((w, i) => isFrame(w) && !w.includes("Answer number 12.") && !printed(i));
    expect(lost, `write ${lost} of:\n${writes.join("\n=====\n")}`).toBe(-1);
  });
});
