import { EXIT } from "../../errors/conch-error.js";
import { ControlClient } from "../../control/control-client.js";
import { RemoteSession } from "../../control/remote-session.js";
import { FollowedSession } from "../../orchestrator/follow/followed-session.js";
import type { SessionEvent } from "../../session/events.js";
import { LogTail } from "../../store/log-tail.js";
import type { SessionRecord } from "../../store/session-index.js";
import { sessionLogPath } from "../../store/state-dir.js";
import { detectTerminalFeatures, featureFilteredOutput } from "../tty/terminal-features.js";
import type { StartupTerminal } from "./startup-terminal.js";

/** What `conch attach --write` needs: the session's record (its log, its control socket) and the terminal. */
export interface AttachWriteOptions {
  rec: SessionRecord;
  root: string;
  terminal: StartupTerminal;
  err: (text: string) => void;
}

/**
 * `conch attach --write`: the TUI, with its keys, over a session another conch runs. The screen is
 * the session's log folded here (as `conch attach` draws it); what the person does goes to that
 * conch's control socket as the TUI's intents, and comes back through the log. Quitting detaches:
 * the session goes on in the conch that runs it. Returns the exit code.
 */
export async function runAttachWrite(opts: AttachWriteOptions): Promise<number> {
  const { rec, root, terminal } = opts;
  const fail = (text: string) => {
    terminal.giveBack();
    opts.err(`conch: ${text}\n`);
    return EXIT.failed;
  };
  if (!rec.control)
    return fail(
      `session ${rec.id} names no control socket: it is not running in a conch that takes --write (conch attach ${rec.id} watches)`,
    );
  let client: ControlClient;
  try {
    client = await ControlClient.connect(rec.control, rec.id);
  } catch (err) {
    return fail(`cannot attach to write to session ${rec.id}: ${(err as Error).message}`);
  }
  const followed = new FollowedSession(rec.cwd);
  const tail = new LogTail<SessionEvent>(sessionLogPath(rec.id, root), {
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
  const session = new RemoteSession(followed, client);
  const [react, { render }, { App }] = await Promise.all([import("react"), import("ink"), import("./app.js")]);
  const features = detectTerminalFeatures();
  terminal.prompt.erase();
  const { input } = terminal;
  const instance = render(
    react.default.createElement(App, {
      session,
      agentName: rec.agent,
      cwd: rec.cwd,
      bracketedPaste: true,
      features,
      attachedTo: { sessionId: rec.id, pid: client.ownerPid },
    }),
    {
      stdin: input.stream() as unknown as NodeJS.ReadStream,
      stdout: featureFilteredOutput(process.stdout, features),
      exitOnCtrlC: false,
      patchConsole: false,
      kittyKeyboard: { mode: input.kittyKeyboard ? "enabled" : "disabled" },
    },
  );
  // The conch that runs the session went away: say so, keep what is shown; the keys act no more.
  client.onClose((reason) => {
    if (reason !== "detached")
      followed.apply([{ type: "notice", at: Date.now(), level: "warning", text: `${reason}: this view no longer acts` }]);
  });
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const onSignal = () => instance.unmount();
  for (const signal of signals) process.on(signal, onSignal);
  try {
    await instance.waitUntilExit();
  } finally {
    for (const signal of signals) process.off(signal, onSignal);
    input.close();
    client.close();
    tail.close();
    followed.dispose();
  }
  return EXIT.ok;
}
