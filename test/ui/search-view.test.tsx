import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

afterEach(() => cleanup());

const CTRL_R = "\x12";

function renderApp(session: FakeSession) {
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />);
  return { ...view, frame: () => plain(view.lastFrame()) };
}

async function type(stdin: { write(s: string): void }, text: string) {
  stdin.write(text);
  await tick();
}

/** A session of two turns: a prompt about the build, a command, and answers. */
function session(): FakeSession {
  const s = new FakeSession().open();
  const t1 = s.prompt("why does the build fail?");
  s.update({
    sessionUpdate: "tool_call",
    toolCallId: "c1",
    title: "Run tests",
    kind: "execute",
    status: "completed",
    rawInput: { command: "npm test" },
    content: [{ type: "content", content: { type: "text", text: "```\n12 passed\nbuild step: FAILED at line 3\n```" } }],
  });
  s.chunk("The build fails at line 3.");
  s.respond(t1);
  const t2 = s.prompt("and now?");
  s.chunk("Now it passes.");
  s.respond(t2);
  s.emit({ type: "settled" });
  return s;
}

describe("the search view", () => {
  it("opens with Ctrl-R, finds what is typed, and shows the newest hit's item with the hit", async () => {
    const { stdin, frame } = renderApp(session());
    await tick();
    await type(stdin, CTRL_R);
    await until(() => expect(frame()).toContain("search ›"));
    expect(frame()).toContain("type to search prompts, answers, thoughts, tool titles, commands and their output");
    await type(stdin, "build");
    await until(() => expect(frame()).toContain("search › build   3/3"));
    // The hits, the newest selected, and its item drawn below.
    expect(frame()).toMatch(/ {2}you +why does the build fail\?/);
    expect(frame()).toMatch(/ {2}output +.*build step: FAILED at line 3/);
    expect(frame()).toMatch(/▸ agent +The build fails at line 3\./);
  });

  it("Ctrl-R and the query in one read (tmux send-keys, fast typing): the search opens with the query, nothing lands in the input", async () => {
    const { stdin, frame } = renderApp(session());
    await tick();
    // The terminal reader cuts one read into its keys (a control key is one of its own), which reach
    // the views together, before React draws: written here the same way, with no wait between.
    stdin.write(CTRL_R);
    await type(stdin, "build");
    await until(() => expect(frame()).toContain("search › build   3/3"));
    expect(frame()).not.toContain("build›");
  });

  it("moves to older and newer hits, showing each one's item, and leaves with Esc", async () => {
    const s = session();
    const { stdin, frame } = renderApp(s);
    await tick();
    await type(stdin, CTRL_R);
    await type(stdin, "build");
    await until(() => expect(frame()).toContain("3/3"));
    await type(stdin, KEY.up);
    await until(() => expect(frame()).toContain("2/3"));
    expect(frame()).toMatch(/▸ output/);
    // The tool call is drawn in full under the list: its command and output.
    expect(frame()).toContain("$ npm test");
    expect(frame()).toContain("12 passed");
    await type(stdin, CTRL_R);
    await until(() => expect(frame()).toContain("1/3"));
    await type(stdin, CTRL_R);
    expect(frame()).toContain("1/3");
    await type(stdin, KEY.down);
    await until(() => expect(frame()).toContain("2/3"));
    await type(stdin, KEY.escape);
    await until(() => expect(frame()).not.toContain("search ›"));
    // Esc left the search: it did not cancel anything, and the input has the keys again.
    expect(s.intents()).not.toContain("cancel");
    await type(stdin, "hi");
    await until(() => expect(frame()).toContain("› hi"));
  });

  it("opens from /search with the text, says when nothing matches, and edits the query", async () => {
    const { stdin, frame } = renderApp(session());
    await tick();
    await type(stdin, "/search passes");
    await type(stdin, KEY.enter);
    await until(() => expect(frame()).toContain("search › passes   1/1"));
    expect(frame()).toMatch(/▸ agent +Now it passes\./);
    await type(stdin, "zz");
    await until(() => expect(frame()).toContain("search › passeszz   no match"));
    await type(stdin, KEY.backspace);
    await type(stdin, KEY.backspace);
    await until(() => expect(frame()).toContain("search › passes   1/1"));
    await type(stdin, "\x15");
    await until(() => expect(frame()).toContain("type to search"));
  });

  it("finds what arrives while it is open", async () => {
    const s = session();
    const { stdin, frame } = renderApp(s);
    await tick();
    await type(stdin, CTRL_R);
    await type(stdin, "deploy");
    await until(() => expect(frame()).toContain("no match"));
    const t3 = s.prompt("deploy it");
    s.chunk("Deploying now.");
    await until(() => expect(frame()).toContain("search › deploy   2/2"));
    s.respond(t3);
  });
});
