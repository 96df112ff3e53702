import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "ink-testing-library";
import { App } from "../../src/ui/app/app.js";
import { parseExportArgs } from "../../src/ui/commands/export-command.js";
import { tempDir } from "../support/run-conch.js";
import { FakeSession, KEY, plain, tick, until } from "./fake-session.js";

afterEach(() => cleanup());

function renderApp(session: FakeSession) {
  const view = render(<App session={session} agentName="fake" cwd="/tmp/project" frameMs={0} />);
  return { ...view, frame: () => plain(view.lastFrame()) };
}

async function submit(stdin: { write(s: string): void }, text: string) {
  stdin.write(text);
  await tick();
  stdin.write(KEY.enter);
  await tick();
}

describe("/export", () => {
  it("writes the transcript as Markdown into the session's folder, under a name that replaces nothing", async () => {
    const cwd = tempDir();
    const session = new FakeSession().open({ cwd });
    const t = session.prompt("explain the build");
    session.chunk("It uses **esbuild**.");
    session.respond(t);
    const { stdin, frame } = renderApp(session);
    await tick();
    await submit(stdin, "/export");
    await until(() => expect(frame()).toMatch(/exported the transcript to conch-s1-\d{4}-\d\d-\d\d\.md/));
    const [file] = readdirSync(cwd);
    const md = readFileSync(path.join(cwd, file), "utf8");
    expect(md).toContain("### › explain the build");
    expect(md).toContain("It uses **esbuild**.");
    await submit(stdin, "/export");
    await until(() => expect(frame()).toMatch(/exported the transcript to conch-s1-\d{4}-\d\d-\d\d-2\.md/));
  });

  it("refuses to replace a named file unless told --force", async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, "notes.md"), "mine");
    const session = new FakeSession().open({ cwd });
    const { stdin, frame } = renderApp(session);
    await tick();
    await submit(stdin, "/export notes.md");
    await until(() => expect(frame()).toContain("notes.md already exists: give another name, or add --force to replace it"));
    expect(readFileSync(path.join(cwd, "notes.md"), "utf8")).toBe("mine");
    await submit(stdin, "/export notes.md --force");
    await until(() => expect(frame()).toContain("exported the transcript to notes.md (replacing the file that was there)"));
    expect(readFileSync(path.join(cwd, "notes.md"), "utf8")).toContain("- Session: `s1`");
  });

  it("reads a file name with spaces and --force anywhere", () => {
    expect(parseExportArgs("")).toEqual({ file: undefined, force: false });
    expect(parseExportArgs("--force my notes.md")).toEqual({ file: "my notes.md", force: true });
  });
});
