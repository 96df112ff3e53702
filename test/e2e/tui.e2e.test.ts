import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { alive, Screen, terminalEnv } from "./screen.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");

describe("conch's TUI in a real terminal, driving the demo agent", () => {
  // One conch per case: a case that fails leaves nothing on the screen (a prompt, a half-typed line)
  // for the next one to trip over.
  let screen: Screen;

  beforeEach(async () => {
    const project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    screen = new Screen({
      command: process.execPath,
      args: [BIN, "--agent", "demo"],
      cwd: project,
      env: terminalEnv(state),
      cols: 100,
      rows: 30,
    });
    await screen.waitForText("conch demo agent", 15_000);
    await screen.waitForText("message the agent", 10_000, "visible");
  });

  afterEach(async () => {
    await screen?.kill();
  });

  it("shows the prompt, sends a message and streams the answer", async () => {
    await screen.submit("hello");
    await screen.waitForText("› hello");
    await screen.waitForText("Type a keyword (or /keyword)");
    await screen.waitForText("message the agent", 5_000, "visible");
  });

  it("/clear clears the screen and starts a new session (the old one closed at the agent)", async () => {
    await screen.submit("hello");
    await screen.waitForText("Type a keyword (or /keyword)");
    await screen.waitForText("message the agent", 5_000, "visible");
    await screen.submit("/clear");
    await screen.waitForGone("Type a keyword (or /keyword)");
    expect(screen.text()).not.toContain("› hello");
    await screen.waitForText(/new session demo-\S+ \(the agent closed/);
    await screen.waitForText("message the agent", 5_000, "visible");
  });

  it("asks permission, takes the answer and completes the tool call", async () => {
    await screen.submit("permission");
    await screen.waitForText("Permission", 5_000, "visible");
    await screen.waitForText("rm -rf build/", 5_000, "visible");
    await screen.waitForText("Allow once", 5_000, "visible");
    // The status line is the frame's last row: once it shows, the whole prompt is drawn.
    await screen.waitForText("waiting for permission (1)", 5_000, "visible");
    await screen.type("y");
    await screen.waitForText(/you chose Allow once/);
    await screen.waitForText(/✓ \$ rm -rf build\//);
    await screen.waitForGone("waiting for permission");
  });

  it("shows the diff of an edit", async () => {
    await screen.submit("edit");
    await screen.waitForText("demo-notes.md (new file)", 5_000, "visible");
    // The tool card draws the diff header before the permission prompt: wait for the prompt.
    await screen.waitForText("waiting for permission (1)", 5_000, "visible");
    await screen.type("y");
    await screen.waitForText("Done: demo-notes.md has a new line at the end.");
    const text = screen.text();
    expect(text).toMatch(/\+ # Demo notes/);
    expect(text).toMatch(/\+ - conch demo edit #1/);
  });

  it("cancels a slow answer with Esc", async () => {
    await screen.submit("slow");
    await screen.waitForText("This answer is deliberately slow");
    await screen.waitForText("esc to cancel", 5_000, "visible");
    await screen.type("\x1b");
    await screen.waitForGone("esc to cancel", 5_000);
    await screen.waitForText("message the agent", 5_000, "visible");
    // Cancelled well before the end of the five-second answer.
    await new Promise((r) => setTimeout(r, 500));
    await screen.settle();
    expect(screen.text()).not.toContain("which is also fine");
  });

  it("queues a message during a background task and sends it after the task's follow-up", async () => {
    await screen.submit("background");
    await screen.waitForText("background task running", 5_000, "visible");
    await screen.submit("after the job");
    await screen.waitForText("1. after the job", 5_000, "visible");
    await screen.waitForText("The background job finished: done.", 10_000);
    await screen.waitForText("› after the job", 10_000);
    const lines = screen.lines();
    const followUp = lines.findIndex((l) => l.includes("The background job finished: done."));
    const sent = lines.findIndex((l) => l.includes("› after the job"));
    expect(followUp).toBeGreaterThan(-1);
    expect(sent).toBeGreaterThan(followUp);
    await screen.waitForText("message the agent", 10_000, "visible");
  });

  it("focuses a running terminal with Ctrl-T and types into it", async () => {
    await screen.submit("interactive");
    await screen.waitForText("ctrl-t focus terminal", 5_000, "visible");
    await screen.type("\x14");
    await screen.waitForText("keys go to the terminal", 5_000, "visible");
    await screen.type("Ada");
    await screen.type("\r");
    await screen.waitForText("Hello, Ada");
    await screen.waitForGone("keys go to the terminal");
    await screen.waitForText("message the agent", 5_000, "visible");
  });

  it("Ctrl-T and the keys after it in one read (tmux send-keys C-t Ada Enter): the keys go to the terminal it focused, not into a queued message", async () => {
    await screen.submit("interactive");
    await screen.waitForText("ctrl-t focus terminal", 5_000, "visible");
    await screen.type("\x14Ada\r");
    await screen.waitForText("Hello, Ada");
    await screen.waitForText("message the agent", 5_000, "visible");
    expect(screen.text()).not.toMatch(/1\. Ada|› Ada/);
  });

  it("rings the bell and posts a notification when a turn of more than 5 s ends", async () => {
    expect(screen.bells).toBe(0);
    await screen.submit("slow");
    await screen.waitForText("which is also fine", 15_000);
    await screen.waitForText("message the agent", 10_000, "visible");
    // The notification is written by an effect after the frame that shows the idle editor: on a loaded machine it can come a little later.
    await vi.waitFor(() => expect(screen.notifications).toEqual(["conch: the agent finished"]), { timeout: 5_000 });
    expect(screen.bells).toBe(1);
  });

  it("quits on Ctrl-C twice with exit code 0, and leaves no process behind", async () => {
    await screen.submit("background");
    await screen.waitForText("background task running", 5_000, "visible");
    const seen = screen.descendants();
    expect(seen.length).toBeGreaterThan(0);
    await screen.waitForText("The background job finished: done.", 10_000);
    await screen.waitForText("message the agent", 10_000, "visible");
    await screen.type("\x03");
    await screen.waitForText("press Ctrl-C again to quit", 5_000, "visible");
    await screen.type("\x03");
    const code = await Promise.race([screen.exited, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))]);
    expect(code).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter(alive)).toEqual([]);
  });
});
