import { EXIT, exitCodeOf, messageOf } from "../errors/conch-error.js";
import { FollowedSession } from "../orchestrator/follow/followed-session.js";
import type { SessionEvent } from "../session/events.js";
import { LogTail } from "../store/log-tail.js";
import { sessionWriterPid } from "../store/session-lock.js";
import { resolveStateDir, sessionLogPath } from "../store/state-dir.js";
import type { WriterView } from "../ui/attach/attach-app.js";
import type { Following } from "../ui/attach/run-attach.js";
import type { Command } from "./parse-args.js";
import { findStoredSession } from "./session-setup.js";

/** Who writes the session's log now, given who did before (a writer that went away is "gone", not "none"). */
function writerNow(id: string, root: string, before: WriterView | undefined): WriterView {
  const pid = sessionWriterPid(id, root);
  if (pid !== undefined) return { kind: "live", pid };
  if (before?.kind === "deleted") return before;
  if (before?.kind === "live" || before?.kind === "gone") return { kind: "gone", pid: before.pid };
  return { kind: "none" };
}

/**
 * `conch attach <id>`: follows a session another conch is running (or ran), read-only: the log is
 * folded, then each appended line is folded too (`FollowedSession`); it never takes the session's
 * lock, never writes. In a terminal it draws the transcript as the TUI does; piped, it prints
 * settled items as text and ends when no conch writes the session any more.
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
  const root = resolveStateDir();
  const session = new FollowedSession(rec.cwd);
  let writer: WriterView = writerNow(rec.id, root, undefined);
  let redraw: () => void = () => undefined;
  const tail = new LogTail<SessionEvent>(sessionLogPath(rec.id, root), {
    onEvents: (events) => session.apply(events),
    onGone: (reason) => {
      writer = { kind: "deleted", reason };
      redraw();
    },
  });
  try {
    tail.start();
  } catch (err) {
    process.stderr.write(`conch: cannot read the log of session ${rec.id}: ${(err as Error).message}\n`);
    session.dispose();
    return EXIT.failed;
  }
  const checkWriter = () => {
    const next = writerNow(rec.id, root, writer);
    if (next.kind === writer.kind && (next as { pid?: number }).pid === (writer as { pid?: number }).pid) return false;
    writer = next;
    return true;
  };
  const following: Following = {
    session,
    catchUp: () => tail.readNew(),
    writer: () => writer,
    checkWriter,
    onRedraw: (fn) => (redraw = fn),
  };
  const { runAttach } = await import("../ui/attach/run-attach.js");
  try {
    return await runAttach({
      following,
      sessionId: rec.id,
      interactive: process.stdin.isTTY === true && process.stdout.isTTY === true,
      out: (t) => process.stdout.write(t),
    });
  } finally {
    tail.close();
    session.dispose();
  }
}
