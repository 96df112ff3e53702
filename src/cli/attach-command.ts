import { exitCodeOf, messageOf } from "../errors/conch-error.js";
import { resolveStateDir } from "../store/state-dir.js";
import type { Command } from "./parse-args.js";
import { findStoredSession } from "./session-setup.js";

/**
 * `conch attach <id>`: follows a session another conch is running (or ran), read-only. In a
 * terminal it draws the transcript as the TUI does; piped, it prints settled items as text and
 * ends when no conch writes the session any more.
 */
export async function runAttachCommand(cmd: Extract<Command, { kind: "attach" }>): Promise<number> {
  let rec;
  try {
    rec = await findStoredSession(cmd.id);
  } catch (err) {
    process.stderr.write(`conch: ${messageOf(err)}\n`);
    return exitCodeOf(err);
  }
  if (cmd.write) {
    const { runAttachWriteCommand } = await import("./attach-write-command.js");
    return runAttachWriteCommand(rec);
  }
  const { runAttach } = await import("../ui/attach/run-attach.js");
  return runAttach({
    rec,
    root: resolveStateDir(),
    interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  });
}
