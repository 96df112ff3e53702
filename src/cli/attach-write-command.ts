import { EXIT } from "../errors/conch-error.js";
import { ControlClient } from "../control/control-client.js";
import { RemoteSession } from "../control/remote-session.js";
import { FollowedSession } from "../orchestrator/follow/followed-session.js";
import type { SessionEvent } from "../session/events.js";
import { LogTail } from "../store/log-tail.js";
import type { SessionRecord } from "../store/session-index.js";
import { resolveStateDir, sessionLogPath } from "../store/state-dir.js";
import { StartupTerminal } from "../ui/app/startup-terminal.js";

/**
 * `conch attach --write <id>`: connects to the control socket of the conch that runs the session
 * (the record names it), follows the session's log as `conch attach` does, and runs the TUI over
 * both: the screen from the log, the intents over the socket. Returns the exit code.
 */
export async function runAttachWriteCommand(rec: SessionRecord): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write("conch: attach --write needs a terminal (plain `conch attach` follows a session into a pipe)\n");
    return EXIT.usage;
  }
  const fail = (text: string) => {
    process.stderr.write(`conch: ${text}\n`);
    return EXIT.failed;
  };
  if (!rec.control)
    return fail(`session ${rec.id} names no control socket: no conch that takes --write runs it (conch attach ${rec.id} watches)`);
  let client: ControlClient;
  try {
    client = await ControlClient.connect(rec.control, rec.id);
  } catch (err) {
    return fail(`cannot attach to write to session ${rec.id}: ${(err as Error).message}`);
  }
  const followed = new FollowedSession(rec.cwd);
  const tail = new LogTail<SessionEvent>(sessionLogPath(rec.id, resolveStateDir()), {
    onEvents: (events) => followed.apply(events),
    onGone: () => undefined,
  });
  try {
    tail.start();
  } catch (err) {
    client.close();
    followed.dispose();
    return fail(`cannot read the log of session ${rec.id}: ${(err as Error).message}`);
  }
  // The conch that runs the session went away: say so, keep what is shown; the keys act no more.
  client.onClose((reason) => {
    if (reason !== "detached")
      followed.apply([{ type: "notice", at: Date.now(), level: "warning", text: `${reason}: this view no longer acts` }]);
  });
  const terminal = StartupTerminal.open(rec.agent, rec.cwd);
  const { runAttachWrite } = await import("../ui/app/run-attach-write.js");
  try {
    return await runAttachWrite({
      session: new RemoteSession(followed, client),
      sessionId: rec.id,
      ownerPid: client.ownerPid,
      agentName: rec.agent,
      cwd: rec.cwd,
      terminal,
    });
  } finally {
    client.close();
    tail.close();
    followed.dispose();
  }
}
