import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CONCH } from "../support/run-conch.js";
import { Screen, terminalEnv } from "./screen.js";

describe("Ctrl-G in a real terminal", () => {
  let screen: Screen | undefined;
  afterAll(async () => {
    await screen?.kill();
  });

  it("gives the terminal to $VISUAL, then takes back the screen as it was and the edited text into the input", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "conch-e2e-editor-"));
    const editor = path.join(dir, "editor.sh");
    // An editor that draws over the screen, reads a key from the terminal, then rewrites the file.
    writeFileSync(
      editor,
      `#!/bin/sh\nprintf '\\033[2J\\033[HEDITOR SCREEN: press a key\\n'\nread -r answer\n{ cat "$1"; printf ' (edited with %s)\\n' "$answer"; } > "$1.new" && mv "$1.new" "$1"\n`,
    );
    chmodSync(editor, 0o755);
    const state = mkdtempSync(path.join(tmpdir(), "conch-e2e-state-"));
    screen = new Screen({
      command: process.execPath,
      args: [CONCH, "--agent", "demo"],
      cwd: dir,
      env: { ...terminalEnv(state), VISUAL: editor },
      cols: 100,
      rows: 30,
    });
    await screen.waitForText("message the agent", 15_000, "visible");
    await screen.submit("hello");
    await screen.waitForText("Type a keyword (or /keyword)");
    await screen.type("my draft");
    await screen.type("\x07");
    await screen.waitForText("EDITOR SCREEN: press a key", 5_000, "visible");
    // The editor reads the terminal in its line mode: conch does not take these keys.
    await screen.submit("ok");
    await screen.waitForText("› my draft (edited with ok)", 5_000, "visible");
    const visible = screen.visible();
    expect(visible).not.toContain("EDITOR SCREEN");
    expect(visible).toContain("Type a keyword (or /keyword)");
    expect(screen.text()).toContain("› hello");
    await screen.type("\r");
    await screen.waitForText(/› my draft \(edited with ok\)\n/);
    await screen.waitForText("message the agent", 5_000, "visible");
  });
});
