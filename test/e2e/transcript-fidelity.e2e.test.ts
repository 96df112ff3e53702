import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";
import { runConch } from "../support/run-conch.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");
const ORDER_AGENT = `${process.execPath} ${path.join(ROOT, "test/fixtures/order-agent.mjs")}`;

const screens: Screen[] = [];
afterEach(async () => {
  for (const s of screens.splice(0)) await s.kill();
});

function start(args: string[], size: { cols?: number; rows?: number } = {}): Screen {
  const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-fidelity-"));
  const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
  const screen = new Screen({
    command: process.execPath,
    args: [BIN, ...args],
    cwd: project,
    env: terminalEnv(state),
    cols: 100,
    rows: 30,
    ...size,
  });
  screens.push(screen);
  return screen;
}

/** The rows inside the pane whose top border names `title`, as printed (border and padding taken off). */
function paneBody(screen: Screen, title: string): string[] {
  const lines = screen.lines();
  const top = lines.findIndex((l) => l.includes("╭─") && l.includes(title));
  if (top < 0) throw new Error(`no pane titled ${title} in:\n${lines.join("\n")}`);
  const body: string[] = [];
  for (const line of lines.slice(top + 1)) {
    if (line.includes("╰")) break;
    body.push(line.replace(/^\s*│/, "").replace(/│\s*$/, "").trimEnd());
  }
  return body;
}

describe("what a finished command printed stays on screen", () => {
  it("a finished command's pane keeps every line of a short output (demo run)", async () => {
    const screen = start(["--agent", "demo"]);
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("run");
    await screen.waitForText("The build finished", 15_000);
    await screen.settle();
    expect(paneBody(screen, "sh -c")).toEqual([
      "==> conch demo build",
      "compiling 10 modules",
      "[##########] 100%",
      "warning: demo.ts:3: unused variable",
      "build ok",
    ]);
  });

  it("a long output shows its head and tail around a count of the lines left out, never cut silently", async () => {
    const screen = start(["--agent", ORDER_AGENT]);
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("long");
    await screen.waitForText("Printed it.", 15_000);
    await screen.settle();
    const body = paneBody(screen, "seq 1 100");
    expect(body).toHaveLength(20);
    expect(body[0]).toBe("1");
    expect(body.at(-1)).toBe("100");
    const marker = body.findIndex((l) => l.startsWith("…"));
    expect(body[marker]).toBe("… 81 lines hidden (Ctrl-R/export shows all)");
    expect(body[marker - 1]).toBe(String(marker));
    expect(body[marker + 1]).toBe(String(100 - (body.length - marker - 2)));
  });

  it("a command's last line, sent with its exit, is in its pane when the pane is printed", async () => {
    const screen = start(["--agent", ORDER_AGENT]);
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("lastline");
    await screen.waitForText("The job is over.", 15_000);
    await screen.waitForText("message the agent", 5_000, "visible");
    await screen.settle();
    expect(paneBody(screen, "make test")).toEqual(["first line", "the last line"]);
  });
});

describe("conch attach draws a finished command as the running conch did", () => {
  it("at the width its command ran at, every line", async () => {
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-fidelity-"));
    const env = terminalEnv(state);
    const tui = new Screen({ command: process.execPath, args: [BIN, "--agent", ORDER_AGENT], cwd: project, env, cols: 120, rows: 30 });
    screens.push(tui);
    await tui.waitForText("message the agent", 15_000, "visible");
    await tui.submit("wide");
    await tui.waitForText("Printed it.", 15_000);
    await tui.settle();
    const ran = paneBody(tui, "sh -c");
    expect(ran).toEqual(["start", Array.from({ length: 10 }, (_, i) => `word${i}-abcd`).join(" "), "end"]);
    const attach = new Screen({ command: process.execPath, args: [BIN, "attach", "order-1"], cwd: project, env, cols: 120, rows: 30 });
    screens.push(attach);
    await attach.waitForText("Printed it.", 15_000);
    await attach.settle();
    expect(paneBody(attach, "sh -c")).toEqual(ran);
  });
});

/** Quits a TUI as a person does (Ctrl-C twice) and waits for its exit. */
async function quit(screen: Screen): Promise<void> {
  await screen.type("\x03");
  await screen.waitForText("press Ctrl-C again to quit", 5_000, "visible");
  await screen.type("\x03");
  await Promise.race([screen.exited, new Promise((r) => setTimeout(r, 10_000))]);
}

/** The one session a state dir holds. */
async function onlySession(stateDir: string): Promise<string> {
  const r = await runConch(["sessions", "--json", "--all"], { stateDir });
  if (!r.stdout.trim().startsWith("[")) throw new Error(`${r.stdout}${r.stderr}`);
  const list = JSON.parse(r.stdout || "[]") as { id: string }[];
  expect(list).toHaveLength(1);
  return list[0].id;
}

describe("an answer cut off by Esc says so", () => {
  it("the turn ends with ⊘ interrupted: live, after --resume (the agent's replay), and in the export", async () => {
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-fidelity-"));
    const env = terminalEnv(state);
    const live = new Screen({ command: process.execPath, args: [BIN, "--agent", "demo"], cwd: project, env, cols: 100, rows: 30 });
    screens.push(live);
    await live.waitForText("message the agent", 15_000, "visible");
    await live.submit("slow");
    await live.waitForText("This answer is deliberately slow", 10_000);
    await live.type("\x1b");
    await live.waitForText("⊘ interrupted", 10_000);
    await live.waitForText("message the agent", 5_000, "visible");
    const cut = live.lines();
    expect(cut.findIndex((l) => l.includes("⊘ interrupted"))).toBeGreaterThan(cut.findIndex((l) => l.includes("deliberately slow")));
    await live.submit("hello");
    await live.waitForText("Type a keyword", 10_000);
    await live.waitForText("message the agent", 5_000, "visible");
    await quit(live);

    const id = await onlySession(state);
    const resumed = new Screen({
      command: process.execPath,
      args: [BIN, "--agent", "demo", "--resume", id],
      cwd: project,
      env,
      cols: 100,
      rows: 30,
    });
    screens.push(resumed);
    await resumed.waitForText("Type a keyword", 15_000);
    await resumed.waitForText("message the agent", 5_000, "visible");
    // The history may still be going to the scrollback under a preview of its newest rows (a slow
    // machine makes it a backlog): the test reads it once it is all there.
    await resumed.waitForText(/⊘ interrupted[\s\S]*› hello/, 15_000);
    const lines = resumed.lines();
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(lines.filter((l) => l.includes("⊘ interrupted"))).toHaveLength(1);
    expect(at("› slow")).toBeLessThan(at("⊘ interrupted"));
    expect(at("⊘ interrupted")).toBeLessThan(at("› hello"));

    const exported = await runConch(["export", id], { stateDir: state, cwd: project });
    expect(exported.stdout).toMatch(/deliberately slow[\s\S]*\*⊘ interrupted\*[\s\S]*### › hello/);
  });
});

describe("a command that did not run, or was cancelled, says so", () => {
  it("a command refused at its permission prompt shows no waiting pane: it was not run", async () => {
    const screen = start(["--agent", ORDER_AGENT]);
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("reject");
    await screen.waitForText("Reject", 15_000, "visible");
    await screen.type("n");
    await screen.waitForText("Understood, I did not run it.", 15_000);
    await screen.waitForText("message the agent", 5_000, "visible");
    await screen.settle();
    const text = screen.text();
    expect(text).not.toContain("(waiting for output)");
    expect(text).toMatch(/rm -rf build[\s\S]*\(not run\)[\s\S]*Understood/);
  });

  it("a command cancelled by Esc keeps its output, and its pane says cancelled instead of a stopped clock", async () => {
    const screen = start(["--agent", ORDER_AGENT]);
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("cancelme");
    // The pane's row: "start" alone also matches the instant prompt's "starting…".
    await screen.waitForText("│start", 15_000, "visible");
    await screen.waitForText("esc to cancel", 5_000, "visible");
    await screen.type("\x1b");
    await screen.waitForText("⊘ interrupted", 10_000);
    await screen.settle();
    const top = screen.lines().find((l) => l.includes("╭─") && l.includes("sleep 30"));
    expect(top).toMatch(/cancelled ─╮$/);
    expect(paneBody(screen, "sleep 30")).toEqual(["start"]);
  });

  it("a command whose output the agent reports only at the end (codex 0.16) shows it in its one pane", async () => {
    const replay = `${process.execPath} ${path.join(ROOT, "dist/demo/trace-replay/main.js")} ${path.resolve(ROOT, "../shared/traces/codex-acp-0.16.0/c2-meta.jsonl")} --speed 4 --causal`;
    const screen = start(["--agent", replay]);
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("Run echo hello in the shell.");
    await screen.waitForText("Yes, proceed", 15_000, "visible");
    await screen.type("y");
    await screen.waitForText("The command printed", 15_000);
    await screen.waitForText("message the agent", 5_000, "visible");
    await screen.settle();
    expect(screen.text()).not.toContain("(no output)");
    expect(paneBody(screen, "echo hello")).toEqual(["hello"]);
    const after = screen.lines().slice(screen.lines().findIndex((l) => l.includes("╰")) + 1);
    expect(after.findIndex((l) => l.trim() === "hello")).toBe(-1);
  });
});

describe("the prompt drawn while conch starts leaves no trace", () => {
  const clearsIntoHistory = (args: string[], env: NodeJS.ProcessEnv, cwd: string) =>
    new Screen({ command: process.execPath, args: [BIN, ...args], cwd, env, cols: 100, rows: 30, scrollOnClear: true });

  it("in a terminal that keeps a cleared screen (tmux), the scrollback starts with the transcript", async () => {
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-fidelity-"));
    const screen = clearsIntoHistory(["--agent", "demo"], terminalEnv(state), project);
    screens.push(screen);
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("hello");
    await screen.waitForText("Type a keyword", 10_000);
    await screen.settle();
    const everything = [...screen.clearedIntoHistory, ...screen.lines()].join("\n");
    expect(everything).not.toContain("starting…");
  });

  it("a second conch refused on a busy session shows the error alone", async () => {
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-fidelity-"));
    const env = terminalEnv(state);
    const first = new Screen({ command: process.execPath, args: [BIN, "--agent", "demo"], cwd: project, env, cols: 100, rows: 30 });
    screens.push(first);
    await first.waitForText("message the agent", 15_000, "visible");
    await first.submit("hello");
    await first.waitForText("Type a keyword", 10_000);
    const id = await onlySession(state);
    const second = clearsIntoHistory(["--agent", "demo", "--resume", id], env, project);
    screens.push(second);
    expect(await Promise.race([second.exited, new Promise((r) => setTimeout(() => r("still running"), 15_000))])).not.toBe("still running");
    await second.settle();
    const everything = [...second.clearedIntoHistory, ...second.lines()].join("\n");
    expect(everything).toMatch(/conch: .*(in use|busy|another conch|is open)/i);
    expect(everything).not.toContain("starting…");
  });
});

describe("wrapping", () => {
  it("a line that fills the width exactly goes on with the next word, with no space before it (demo interactive, 80 columns)", async () => {
    const screen = start(["--agent", "demo"], { cols: 80, rows: 24 });
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("interactive");
    await screen.waitForText("ctrl-t focus terminal", 10_000, "visible");
    await screen.waitForText("Enter.", 10_000);
    await screen.settle();
    const lines = screen.lines();
    const at = lines.findIndex((l) => l.endsWith("type your name, then"));
    expect(at, screen.text()).toBeGreaterThan(-1);
    expect(lines[at + 1]).toBe("Enter.");
  });
});

describe("a permission prompt on a small screen", () => {
  it("shows the changed line it asks about first, and leaves the scrollback alone (demo edit twice, 50x24)", async () => {
    const screen = start(["--agent", "demo"], { cols: 50, rows: 24 });
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("edit");
    // The prompt's own hint: the status line can say it waits before the prompt is drawn.
    await screen.waitForText("enter confirm", 10_000, "visible");
    await screen.type("y");
    await screen.waitForText("message the agent", 10_000, "visible");
    await screen.submit("edit");
    await screen.waitForText("enter confirm", 10_000, "visible");
    await screen.settle();
    expect(screen.visible()).toMatch(/│\s+\d+ \+ - conch demo edit #2/);
    // A frame as tall as the screen made Ink clear the terminal, the transcript's scrollback with it.
    const lines = screen.lines();
    expect(
      lines.filter((l) => l.startsWith("› edit")),
      screen.text(),
    ).toHaveLength(2);
    expect(screen.raw).not.toContain("\x1b[3J");
  });

  it("claude's Edit asks with the changed lines only: no line numbers it did not give (s3, 50x24)", async () => {
    const replay = `${process.execPath} ${path.join(ROOT, "dist/demo/trace-replay/main.js")} ${path.resolve(ROOT, "../shared/traces/claude-agent-acp-0.23.1/s3-edit-diff.jsonl")} --speed 4 --causal`;
    const screen = start(["--agent", replay], { cols: 50, rows: 24 });
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("Fix hello.txt and write notes");
    await screen.waitForText("Permission", 15_000, "visible");
    await screen.waitForText("waiting for permission", 5_000, "visible");
    await screen.settle();
    const prompt = screen.visible();
    expect(prompt).toContain("hello.txt +1 -1 · line not given");
    expect(prompt).toMatch(/│ - line two/);
    expect(prompt).not.toContain("@@ -1,1 +1,1 @@");
    await screen.type("y");
    await screen.waitForText("Write notes.md", 15_000, "visible");
    await screen.waitForText("waiting for permission", 5_000, "visible");
    await screen.type("y");
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.settle();
    const text = screen.text();
    expect(text).toContain("› Fix hello.txt and write notes");
    // The card after the edit has the whole file's diff: there the numbers are the file's.
    expect(text).toMatch(/@@ -1,3 \+1,3 @@[\s\S]*2 +- line two/);
    expect(text).not.toMatch(/✓ ✎ Edit hello.txt\n\s+hello.txt:1/);
  });
});

describe("the queue's keys", () => {
  it("after d removes a message the queue keeps the keys, on the message that took its place (demo slow)", async () => {
    const screen = start(["--agent", "demo"]);
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("slow");
    await screen.waitForText("esc to cancel", 5_000, "visible");
    for (const text of ["one", "two", "three"]) await screen.submit(text);
    await screen.waitForText("3. three", 5_000, "visible");
    await screen.type("\x1b[A");
    await screen.waitForText("› 3. three", 5_000, "visible");
    await screen.type("d");
    await screen.waitForGone("three", 5_000);
    await screen.waitForText("› 2. two", 5_000, "visible");
    await screen.type("e");
    await screen.waitForText("edit 2 › two", 5_000, "visible");
  });
});

describe("conch's own panels on an 80x24 screen", () => {
  it("/help is printed whole into the scrollback, first line to last", async () => {
    const screen = start(["--agent", "demo"], { cols: 80, rows: 24 });
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("/help");
    await screen.waitForText("conch agents --probe · what each agent can do", 10_000);
    await screen.settle();
    const text = screen.text();
    expect(text).toContain("Enter · send (queued while the agent is busy)");
    expect(text).toContain("/help · keys and commands");
    expect(text).not.toMatch(/… \d+ more lines/);
  });

  it("/model is a picker: ↓ and Enter switch the model, and the status bar says so", async () => {
    const screen = start(["--agent", "demo"], { cols: 80, rows: 24 });
    await screen.waitForText("Demo Fast", 15_000, "visible");
    await screen.submit("/model");
    await screen.waitForText("enter choose", 5_000, "visible");
    expect(screen.visible()).toMatch(/› ● Demo Fast/);
    await screen.type("\x1b[B");
    await screen.waitForText("› ○ Demo Smart", 5_000, "visible");
    await screen.type("\r");
    await screen.waitForGone("enter choose", 5_000);
    await screen.waitForText("Demo Smart", 5_000, "visible");
  });
});
