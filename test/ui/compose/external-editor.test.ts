import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { editExternally, editorCommand, terminalHandoff } from "../../../src/ui/compose/external-editor.js";
import { tempDir } from "../../support/run-conch.js";

/** A script standing in for an editor: it runs `body` with the file as $1. */
function fakeEditor(body: string): string {
  const file = path.join(tempDir(), "editor.sh");
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

function recordingHandoff() {
  const calls: string[] = [];
  return { calls, handoff: { release: () => calls.push("release"), reclaim: () => calls.push("reclaim") } };
}

describe("the external editor", () => {
  it("is $VISUAL, then $EDITOR, else vi", () => {
    expect(editorCommand({ VISUAL: "code --wait", EDITOR: "nano" })).toBe("code --wait");
    expect(editorCommand({ VISUAL: " ", EDITOR: "nano" })).toBe("nano");
    expect(editorCommand({})).toBe("vi");
  });

  it("gets the message in a file, runs with the terminal lent to it, and its file becomes the message", () => {
    const editor = fakeEditor(`test "$(cat "$1")" = "draft" || exit 3\nprintf 'rewritten\\nby the editor\\n' > "$1"`);
    const { calls, handoff } = recordingHandoff();
    expect(editExternally("draft", { env: { ...process.env, VISUAL: editor }, handoff })).toEqual({
      ok: true,
      text: "rewritten\nby the editor",
    });
    expect(calls).toEqual(["release", "reclaim"]);
  });

  it("passes the arguments $VISUAL carries", () => {
    const editor = fakeEditor(`printf '%s' "$1" > "$2"`);
    const { handoff } = recordingHandoff();
    expect(editExternally("x", { env: { ...process.env, VISUAL: `${editor} from-args` }, handoff })).toEqual({
      ok: true,
      text: "from-args",
    });
  });

  it("leaves the input as it was when the editor fails or is missing, and takes the terminal back either way", () => {
    const { calls, handoff } = recordingHandoff();
    const failed = editExternally("keep", { env: { ...process.env, VISUAL: fakeEditor("exit 2") }, handoff });
    expect(failed).toEqual({ ok: false, message: expect.stringMatching(/exited with code 2: the input is unchanged$/) });
    const missing = editExternally("keep", { env: { ...process.env, VISUAL: "/nonexistent/editor" }, handoff });
    expect(missing).toEqual({ ok: false, message: "the editor (/nonexistent/editor) was not found: set $VISUAL or $EDITOR" });
    expect(calls).toEqual(["release", "reclaim", "release", "reclaim"]);
  });

  it("lends conch's terminal on the alternate screen, with the kitty keyboard protocol popped while it is away", () => {
    let written = "";
    const states: string[] = [];
    const input = { kittyKeyboard: true, suspend: () => states.push("suspend"), resume: () => states.push("resume") };
    const handoff = terminalHandoff(input, { write: (t: string) => (written += t) });
    handoff.release();
    expect(written).toBe("\x1b[<u\x1b[?25h\x1b[?1049h");
    written = "";
    handoff.reclaim();
    expect(written).toBe("\x1b[?1049l\x1b[?25l\x1b[>1u");
    expect(states).toEqual(["suspend", "resume"]);
  });
});
