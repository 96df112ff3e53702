import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");

describe("steering and undo in a real terminal, with the demo agent", () => {
  let screen: Screen;
  let project: string;

  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    writeFileSync(path.join(project, "notes.md"), "# My notes\n\nkeep this\n");
    screen = new Screen({
      command: process.execPath,
      args: [BIN, "--agent", "demo"],
      cwd: project,
      env: terminalEnv(state),
      cols: 100,
      rows: 30,
    });
    await screen.waitForText("conch demo agent", 15_000);
  });

  afterAll(async () => {
    await screen?.kill();
  });

  it("Ctrl-S steers a message into the slow answer: it shows marked in the turn, and the agent answers it there", async () => {
    await screen.submit("slow");
    await screen.waitForText("This answer is deliberately slow");
    await screen.waitForText("ctrl-s to steer", 5_000, "visible");
    await screen.type("mention bananas");
    await screen.type("\x13");
    await screen.waitForText("› (steered) mention bananas");
    await screen.waitForText("You steered me: “mention bananas”");
    // The answer goes on after the acknowledgement, in the same turn; then Esc ends it.
    await screen.waitForText("Press Escape or Ctrl-C", 10_000);
    await screen.type("\x1b");
    await screen.waitForText("message the agent", 10_000, "visible");
  });

  it("/undo shows the diff of the last turn's edit, and y puts the file back", async () => {
    await screen.submit("/edit notes.md");
    await screen.waitForText("Permission", 5_000, "visible");
    await screen.type("y");
    await screen.waitForText("Done: notes.md has a new line at the end.");
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toContain("conch demo edit #1");
    await screen.submit("/undo");
    await screen.waitForText("Undo turn t2 · /edit notes.md", 5_000, "visible");
    await screen.waitForText(/- - conch demo edit #1/, 5_000, "visible");
    await screen.waitForText("y put this file back · n or esc leave it", 5_000, "visible");
    await screen.type("y");
    await screen.waitForText("undo of turn t2 (/edit notes.md): put back notes.md");
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toBe("# My notes\n\nkeep this\n");
  });
});
