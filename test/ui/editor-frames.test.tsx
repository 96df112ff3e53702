import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { initialEditorState } from "../../src/ui/editor/editor-state.js";
import { loadRenderLibs } from "../../src/ui/render/render-libs.js";
import * as statusText from "../../src/ui/status/status-text.js";
import { SPINNER_FRAMES } from "../../src/ui/render/theme.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

// Every render of the App describes its status line once: the count says when the App rendered.
vi.mock("../../src/ui/status/status-text.js", async (original) => {
  const actual = await original<typeof import("../../src/ui/status/status-text.js")>();
  return { ...actual, describeStatus: vi.fn(actual.describeStatus) };
});
const appRenders = () => vi.mocked(statusText.describeStatus).mock.calls.length;

/** Until the App has not rendered for a while (its first frames, its renderers' warm-up). */
async function quiet(): Promise<void> {
  for (let n = -1; n !== appRenders();) {
    n = appRenders();
    await tick(300);
  }
}

/** The frame once it has stopped changing (a key whose editor grew renders the App after it). */
async function settled(frame: () => string | undefined): Promise<string> {
  let last: string | undefined;
  for (let now = still(frame()); now !== last; now = still(frame())) {
    last = now;
    await tick(60);
  }
  return last;
}

// Loaded before the App mounts: their arrival is a render of the App of its own.
beforeAll(() => loadRenderLibs());

afterEach(() => {
  cleanup();
  vi.mocked(statusText.describeStatus).mockClear();
});

const HISTORY = ["an older prompt", "the last prompt"];

const renderApp = (session: FakeSession, text = "", cursor = 0) =>
  render(
    <App
      session={session}
      agentName="fake"
      cwd="/tmp/project"
      frameMs={0}
      bracketedPaste
      editorAtStart={{ ...initialEditorState(HISTORY), text, cursor }}
    />,
  );

/** A frame without what moves with the clock (the spinner, the elapsed seconds). */
const still = (frame: string | undefined) =>
  (frame ?? "").replace(new RegExp(`[${SPINNER_FRAMES.join("")}]`, "g"), "*").replace(/ · \d+s/g, " · Ns");

/** Keys typed (each write one read of the terminal), then the editor's text and cursor they leave. */
type Step = { keys: string | string[]; text: string; cursor: number };

/** Each piece typed after the ones before it, into an empty input. */
function typing(...pieces: string[]): Step[] {
  let text = "";
  return pieces.map((keys) => {
    text += keys;
    return { keys, text, cursor: text.length };
  });
}

/** A session in the middle of a turn whose answer is longer than the live region: the editor's height takes rows from it. */
function streaming(): FakeSession {
  const session = new FakeSession().open();
  session.prompt("go");
  // Calls still running stay in the live region, cut to the newest rows the region has.
  for (const id of ["c1", "c2", "c3"]) {
    const text = Array.from({ length: 60 }, (_, i) => `line ${i + 1} of log ${id}`).join("\n");
    session.update({
      sessionUpdate: "tool_call",
      toolCallId: id,
      title: `read log ${id}`,
      kind: "read",
      status: "in_progress",
      content: [{ type: "content", content: { type: "text", text } }],
    });
  }
  return session;
}

/**
 * Types each step into one App and, after each, draws a fresh App for the same session state with
 * the editor as the keys left it: both frames must be the same, cell by cell with styles.
 */
async function typeAndCompare(session: FakeSession, steps: Step[]): Promise<void> {
  const app = renderApp(session);
  await until(() => expect(plain(app.lastFrame())).toContain("›"));
  await settled(app.lastFrame);
  for (const step of steps) {
    for (const keys of typeof step.keys === "string" ? [step.keys] : step.keys) {
      app.stdin.write(keys);
      await tick();
    }
    const frame = await settled(app.lastFrame);
    const fresh = renderApp(session, step.text, step.cursor);
    await until(() => expect(still(fresh.lastFrame())).toBe(frame));
    fresh.unmount();
  }
}

describe("a key draws the editor alone", () => {
  it("typing re-renders the editor, not the App", async () => {
    const session = new FakeSession().open();
    const app = renderApp(session);
    await until(() => expect(plain(app.lastFrame())).toContain("Fake Agent"));
    await quiet();
    const before = appRenders();
    for (const ch of "hello") {
      app.stdin.write(ch);
      await tick();
    }
    await until(() => expect(plain(app.lastFrame())).toContain("› hello"));
    app.stdin.write(KEY.left);
    await tick();
    expect(appRenders()).toBe(before);
  });

  it("typed text and cursor moves, each frame as a fresh App draws it", async () => {
    await typeAndCompare(new FakeSession().open(), [
      ...typing("h", "ello", " world"),
      { keys: KEY.left, text: "hello world", cursor: 10 },
      { keys: "\x1bb", text: "hello world", cursor: 6 },
      { keys: "\x01", text: "hello world", cursor: 0 },
      { keys: "\x05", text: "hello world", cursor: 11 },
      { keys: KEY.backspace, text: "hello worl", cursor: 10 },
      { keys: "\x17", text: "hello ", cursor: 6 },
      { keys: "\x15", text: "", cursor: 0 },
    ]);
  });

  it("a multi-line buffer, pasted or broken with Ctrl-J, takes its rows from a live region that is cut", async () => {
    const pasted = "xfirst line\nsecond line\nthird line";
    const more = `${pasted}\nmore`;
    const up = more.indexOf("third line") + 4;
    const cut = more.replace("third line", "d line");
    const at = cut.indexOf("\nd line") + 1;
    const long = Array.from({ length: 14 }, (_, i) => `row ${i}`).join("\n");
    const scrolled = cut.slice(0, at) + long + cut.slice(at);
    await typeAndCompare(streaming(), [
      ...typing("x"),
      { keys: "\x1b[200~first line\rsecond line\rthird line\x1b[201~", text: pasted, cursor: pasted.length },
      { keys: "\n", text: `${pasted}\n`, cursor: pasted.length + 1 },
      { keys: "more", text: more, cursor: more.length },
      { keys: KEY.up, text: more, cursor: up },
      { keys: "\x15", text: cut, cursor: at },
      // Longer than the input shows: it scrolls with the cursor.
      { keys: `\x1b[200~${long.replace(/\n/g, "\r")}\x1b[201~`, text: scrolled, cursor: at + long.length },
      { keys: "\x01", text: scrolled, cursor: at + long.length - "row 13".length },
    ]);
  });

  it("history: Up and Down on an empty input", async () => {
    await typeAndCompare(new FakeSession().open(), [
      { keys: KEY.up, text: HISTORY[1], cursor: HISTORY[1].length },
      { keys: KEY.up, text: HISTORY[0], cursor: HISTORY[0].length },
      { keys: KEY.down, text: HISTORY[1], cursor: HISTORY[1].length },
      { keys: KEY.down, text: "", cursor: 0 },
    ]);
  });

  it("the slash command menu opens, narrows and closes as the text changes", async () => {
    await typeAndCompare(new FakeSession().open(), [
      ...typing("/", "mo", "d"),
      { keys: [KEY.backspace, KEY.backspace, KEY.backspace], text: "/", cursor: 1 },
      { keys: KEY.backspace, text: "", cursor: 0 },
    ]);
  });

  it("while a turn runs: a prompt typed and queued, then the next one typed under the queue", async () => {
    const session = streaming();
    await typeAndCompare(session, [...typing("then run the tests"), { keys: KEY.enter, text: "", cursor: 0 }, ...typing("and lint")]);
    expect(session.state.queue.map((m) => m.text)).toEqual(["then run the tests"]);
  });
});
