import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";
import { waitUntil } from "../support/wait.js";

// What the screen says happened is what happened (issue 20): one error once, the model in use,
// agent-internal text folded, a session that ends as it was told to.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");

let screen: Screen | undefined;
afterEach(async () => {
  await screen?.kill();
  screen = undefined;
});

/** conch in a real terminal with `args`, its own project and state dirs, once its prompt is up. */
async function startConch(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  ready = "conch demo agent",
  project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-")),
): Promise<Screen> {
  const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
  screen = new Screen({
    command: process.execPath,
    args: [BIN, ...args],
    cwd: project,
    env: { ...terminalEnv(state), ...env },
    cols: 100,
    rows: 30,
  });
  await screen.waitForText(ready, 15_000);
  await screen.waitForText("message the agent", 15_000, "visible");
  return screen;
}

/** The `--agent` that replays a recorded real agent's side of a trace in ../shared/traces. */
function replay(trace: string, project: string): string {
  const main = path.join(ROOT, "dist/demo/trace-replay/main.js");
  return `${process.execPath} ${main} ${path.resolve(ROOT, "../shared/traces", trace)} --speed 4 --project ${project} --causal`;
}

/** How many times `text` occurs in the whole buffer, scrollback included. */
const count = (s: Screen, text: string) => s.text().split(text).length - 1;

describe("one error, once", () => {
  it("an agent that crashes mid-turn: its exit and stderr tail are on the screen once, and the way out", async () => {
    const s = await startConch(["--agent", "demo"]);
    await s.submit("crash");
    await s.waitForText("/restart to start the agent again", 10_000, "visible");
    // The transcript is printed by then: the failure notice with its tail, after the text streamed.
    await s.waitForText(/cheese\.\.\.\s*\n\s*\n✗ agent exited with code 1\n {2}demo: simulated crash: out of cheese/);
    // Ink redraws its last frame under rows written above it, and the frame that drops the notice
    // from the live region follows a moment later: the screen is read once that frame is drawn.
    await waitUntil(
      () => count(s, "agent exited with code 1") === 1 && count(s, "simulated crash: out of cheese") === 1,
      "the failure notice is on the screen once",
      10_000,
    );
  });
});

describe("naming the agent", () => {
  it("--agent that is neither a preset nor on PATH: one line that lists the presets, exit 1, nothing started", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    screen = new Screen({
      command: process.execPath,
      args: [BIN, "--agent", "nosuchagent"],
      cwd: project,
      env: terminalEnv(state),
      cols: 100,
      rows: 30,
    });
    expect(await screen.exited).toBe(1);
    await screen.settle();
    // One line, wrapped by the terminal at its width.
    expect(screen.lines().join("")).toContain(
      '"nosuchagent" is neither an agent preset nor a program on PATH (presets: demo, claude, codex',
    );
    expect(screen.text()).not.toMatch(/ENOENT|code \?/);
  });
});

describe("a permission for a call the agent never announces", () => {
  it("once answered and the turn over, nothing is left running and the next message goes out at once", async () => {
    const s = await startConch(["--agent", "demo"]);
    await s.submit("hook");
    // The prompt itself, not only the status line: until it is drawn a key has nowhere to go.
    await s.waitForText("Allow once", 10_000, "visible");
    await s.waitForText("waiting for permission (1)", 10_000, "visible");
    await s.type("y");
    await s.waitForText("Done.");
    await s.submit("hello");
    // With the call held open this message would wait in the queue for the stall timeout (120 s).
    await s.waitForText("Type a keyword (or /keyword)", 10_000);
    expect(s.text()).not.toMatch(/background tasks? running/);
  });
});

describe("the model in use", () => {
  it("/model: the footer shows the model the agent now uses, and one line confirms the change", async () => {
    // The demo lists its models the unstable way too, as claude-agent-acp 0.23 does, and that list
    // keeps the model the session opened with: only the model option's answer says what changed.
    const s = await startConch(["--agent", "demo"]);
    await s.waitForText(/· Demo Fast · /, 5_000, "visible");
    await s.submit("/model demo-smart");
    await s.waitForText("model: Demo Smart (demo-smart)", 10_000);
    await s.waitForText(/· Demo Smart · /, 5_000, "visible");
    expect(s.visible()).not.toContain("Demo Fast");
  });
});

describe("agent-internal text, folded by the agent's profile", () => {
  it("claude 0.23 s3: a Read's card shows the file, not the system reminder Claude Code wrote for its model", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const s = await startConch(["--agent", replay("claude-agent-acp-0.23.1/s3-edit-diff.jsonl", project)], {}, "Claude Agent", project);
    await s.submit("Fix hello.txt and write notes");
    for (let i = 0; i < 2; i++) {
      await s.waitForText("Allow", 15_000, "visible");
      await s.waitForText(/waiting for permission/, 5_000, "visible");
      await s.type("y");
      // Not "the status line is gone": the replay asks the second permission at once, so a screen
      // between the two prompts may never be drawn. Each answer leaves its own line on its card.
      await s.waitForText(new RegExp(`(allowed once[\\s\\S]*){${i + 1}}`), 10_000);
    }
    await s.waitForText("message the agent", 15_000, "visible");
    await s.waitForText("line three");
    expect(s.text()).not.toMatch(/system-reminder|malware/);
  });

  it("claude 0.23 s6: --resume replays a slash command as the command, not its XML", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    const trace = "claude-agent-acp-0.23.1/s6-load-session.jsonl";
    // The session's first run, recorded by conch: its id is the agent's.
    const env = { ...terminalEnv(state), CONCH_STATE_DIR: state };
    execFileSync(
      process.execPath,
      [BIN, "-p", "Run echo hello", "--agent", `${replay(trace, project)} --process 1`, "--permissions", "approve-all"],
      {
        cwd: project,
        env,
        stdio: "ignore",
      },
    );
    const [{ id }] = JSON.parse(execFileSync(process.execPath, [BIN, "sessions", "--json"], { cwd: project, env, encoding: "utf8" })) as {
      id: string;
    }[];
    screen = new Screen({
      command: process.execPath,
      args: [BIN, "--resume", id, "--agent", `${replay(trace, project)} --process 2`],
      cwd: project,
      env,
      cols: 100,
      rows: 30,
    });
    const s = screen;
    await s.waitForText("The command printed: hello", 15_000);
    await s.waitForText("message the agent", 15_000, "visible");
    expect(s.text()).toContain("(agent context) /model default");
    expect(s.text()).toContain("(agent context) Set model to claude-sonnet-4-6");
    expect(s.text()).not.toMatch(/<command-name>|<local-command-stdout>/);
  });

  it("opencode: todowrite is a checklist, not the list as JSON", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const s = await startConch(["--agent", replay("opencode-1.18.33/g-modes-todos-model.jsonl", project)], {}, "OpenCode", project);
    await s.submit("Plan the work.");
    await s.waitForText(/☑ (! )?Read the code/, 15_000);
    await s.waitForText(/☐ (! )?Run the tests/);
    await s.waitForText("message the agent", 15_000, "visible");
    expect(s.text()).not.toContain('"content": "Read the code"');
  });
});

describe("/restart after a session that could not be loaded", () => {
  it("tries the session again, and when the agent still cannot open it, says a new one takes its place and names the old", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    const env = { ...terminalEnv(state), CONCH_STATE_DIR: state };
    execFileSync(process.execPath, [BIN, "-p", "hello", "--agent", "demo"], { cwd: project, env, stdio: "ignore" });
    const [{ id }] = JSON.parse(execFileSync(process.execPath, [BIN, "sessions", "--json"], { cwd: project, env, encoding: "utf8" })) as {
      id: string;
    }[];
    // The demo agent forgets the session: its session/load fails with "Resource not found".
    rmSync(path.join(state, "demo"), { recursive: true, force: true });
    screen = new Screen({
      command: process.execPath,
      args: [BIN, "--resume", id, "--agent", "demo"],
      cwd: project,
      env,
      cols: 100,
      rows: 30,
    });
    const s = screen;
    await s.waitForText("/restart to try again", 15_000, "visible");
    await s.submit("/restart");
    await s.waitForText(`session ${id} could not be opened again`, 15_000);
    await s.waitForText("message the agent", 10_000, "visible");
    // The notice, wrapped at the terminal's width: read without the line breaks and their spaces.
    const flat = (t: string) => t.replace(/\s+/g, "");
    expect(flat(s.text())).toContain(
      flat(
        `so this is a new session (could not open a session with demo: Resource not found (-32002)); ${id} is kept: \`conch --resume ${id}\` tries it again`,
      ),
    );
    await s.submit("hello");
    await s.waitForText("Type a keyword (or /keyword)", 10_000);
  });
});
