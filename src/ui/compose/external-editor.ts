import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Lending the terminal to a program conch runs in it, and taking it back. */
export interface TerminalHandoff {
  release(): void;
  reclaim(): void;
}

/** What a handoff needs of conch's terminal reader (`TerminalInput`). */
interface SuspendableInput {
  suspend(): void;
  resume(): void;
  /** Ink turned the kitty keyboard protocol on: the program must not get its key encoding. */
  kittyKeyboard: boolean;
}

const ALT_SCREEN_ON = "\u001b[?1049h";
const ALT_SCREEN_OFF = "\u001b[?1049l";
const SHOW_CURSOR = "\u001b[?25h";
const HIDE_CURSOR = "\u001b[?25l";
/** Ink pushes kitty flags 1 (disambiguate escape codes); popping restores the terminal's own. */
const KITTY_POP = "\u001b[<u";
const KITTY_PUSH = "\u001b[>1u";

/**
 * The handoff of conch's own terminal: input stops being read and goes back to the terminal's line
 * mode, and the program draws on the alternate screen, so whatever it does, the transcript and
 * Ink's frame come back as they were (editors that switch screens themselves nest into it).
 */
export function terminalHandoff(input: SuspendableInput, output: { write(text: string): unknown }): TerminalHandoff {
  return {
    release() {
      input.suspend();
      output.write((input.kittyKeyboard ? KITTY_POP : "") + SHOW_CURSOR + ALT_SCREEN_ON);
    },
    reclaim() {
      output.write(ALT_SCREEN_OFF + HIDE_CURSOR + (input.kittyKeyboard ? KITTY_PUSH : ""));
      input.resume();
    },
  };
}

/** The editor a person chose: `$VISUAL`, then `$EDITOR`, else `vi` (what git and crontab do). */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || "vi";
}

/** The edited text, or why there is none (the input is then left as it was). */
export type EditResult = { ok: true; text: string } | { ok: false; message: string };

/**
 * Opens the editor on `text` in the same terminal and waits for it (the session waits too: its
 * events are handled once the editor exits). The command is run by `sh`, so `$VISUAL` may carry
 * arguments (`code --wait`). The file is private to the user and removed afterwards.
 */
export function editExternally(text: string, opts: { env: NodeJS.ProcessEnv; handoff: TerminalHandoff }): EditResult {
  const editor = editorCommand(opts.env);
  const dir = mkdtempSync(path.join(tmpdir(), "conch-edit-"));
  const file = path.join(dir, "message.md");
  try {
    writeFileSync(file, text, { mode: 0o600 });
    opts.handoff.release();
    let result;
    try {
      result = spawnSync("/bin/sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit", env: opts.env });
    } finally {
      opts.handoff.reclaim();
    }
    if (result.error) return { ok: false, message: `could not run the editor (${editor}): ${result.error.message}` };
    if (result.status === 127) return { ok: false, message: `the editor (${editor}) was not found: set $VISUAL or $EDITOR` };
    if (result.status !== 0) {
      const how = result.signal ? `on ${result.signal}` : `with code ${result.status}`;
      return { ok: false, message: `the editor (${editor}) exited ${how}: the input is unchanged` };
    }
    // Editors end the file with a newline; the message does not need it.
    return { ok: true, text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
