import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Screen, terminalEnv } from "./screen.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin/conch.js");

describe("remembered rules, /permissions and /redo in a real terminal, with the demo agent", () => {
  let screen: Screen;
  let project: string;
  let state: string;

  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), "conch-e2e-project-"));
    state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    writeFileSync(path.join(project, "notes.md"), "# My notes\n");
    screen = new Screen({
      command: process.execPath,
      args: [BIN, "--agent", "demo"],
      cwd: project,
      env: terminalEnv(state),
      cols: 120,
      rows: 40,
    });
    await screen.waitForText("conch demo agent", 15_000);
  });

  afterAll(async () => {
    await screen?.kill();
  });

  it("a on a permission prompt remembers the command as a rule: the same call is then allowed by it, and the card says so", async () => {
    await screen.submit("permission");
    await screen.waitForText("Always allow", 10_000, "visible");
    await screen.type("a");
    await screen.waitForText("always allowed from now on in this project: `execute(rm -rf build/)`");
    expect(readFileSync(path.join(state, "permission-rules.json"), "utf8")).toContain('"rule": "execute(rm -rf build/)"');
    await screen.waitForText("message the agent", 10_000, "visible");
    await screen.submit("permission");
    await screen.waitForText("allowed by rule `execute(rm -rf build/)` remembered for this project");
    await screen.waitForText("message the agent", 10_000, "visible");
  });

  it("/permissions lists the rule with where it is written, and remove forgets it", async () => {
    await screen.submit("/permissions");
    await screen.waitForText(/1\. allow execute\(rm -rf build\/\) · remembered for this project/, 5_000, "visible");
    await screen.type("\x1b");
    await screen.submit("/permissions remove 1");
    await screen.waitForText("removed: allow execute(rm -rf build/)", 5_000, "visible");
    expect(readFileSync(path.join(state, "permission-rules.json"), "utf8")).not.toContain("rm -rf build/");
    await screen.type("\x1b");
  });

  it("/undo puts the turn's file back from its checkpoints, and /redo applies the change again", async () => {
    await screen.submit("/edit notes.md");
    await screen.waitForText("Permission", 5_000, "visible");
    await screen.type("y");
    await screen.waitForText("Done: notes.md has a new line at the end.");
    await screen.waitForText("message the agent", 10_000, "visible");
    const edited = readFileSync(path.join(project, "notes.md"), "utf8");
    await screen.submit("/undo");
    await screen.waitForText("y put this file back", 5_000, "visible");
    await screen.type("y");
    await screen.waitForText("put back notes.md");
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toBe("# My notes\n");
    await screen.submit("/redo");
    await screen.waitForText("Redo turn", 5_000, "visible");
    await screen.type("y");
    await screen.waitForText("wrote again notes.md");
    expect(readFileSync(path.join(project, "notes.md"), "utf8")).toBe(edited);
    expect(existsSync(path.join(state, "checkpoints"))).toBe(true);
  });
});
