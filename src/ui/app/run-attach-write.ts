import { EXIT } from "../../errors/conch-error.js";
import type { SessionPort } from "../session-port.js";
import { untilExitOrSignal } from "../tty/quit-signals.js";
import { detectTerminalFeatures, featureFilteredOutput } from "../tty/terminal-features.js";
import { firstWritePrefixed, instantSession } from "./instant-session.js";
import type { StartupTerminal } from "./startup-terminal.js";

/** What `conch attach --write` hands the UI: a session run by another conch, and this terminal. */
export interface AttachWriteOptions {
  /** The session as the log shows it, its intents going to the conch that runs it. */
  session: SessionPort;
  sessionId: string;
  /** The pid of the conch that runs it. */
  ownerPid: number;
  agentName: string;
  cwd: string;
  terminal: StartupTerminal;
}

/**
 * `conch attach --write`: the TUI, with its keys, over a session another conch runs. Quitting
 * detaches: the session goes on in the conch that runs it. Returns the exit code.
 */
export async function runAttachWrite(opts: AttachWriteOptions): Promise<number> {
  const { terminal } = opts;
  // Messages sent in the instant prompt go to the session, and its chrome shows the session's state.
  terminal.prompt.attach(instantSession(opts.session, opts.agentName, opts.cwd));
  const [react, { render }, { App }] = await Promise.all([import("react"), import("ink"), import("./app.js")]);
  const features = detectTerminalFeatures();
  // The App starts from the instant prompt's editor; its first frame clears the prompt in the same write.
  const handoff = terminal.prompt.handOff();
  const { input } = terminal;
  const instance = render(
    react.default.createElement(App, {
      session: opts.session,
      agentName: opts.agentName,
      cwd: opts.cwd,
      bracketedPaste: true,
      editorAtStart: handoff.editor,
      features,
      attachedTo: { sessionId: opts.sessionId, pid: opts.ownerPid },
    }),
    {
      stdin: input.stream() as unknown as NodeJS.ReadStream,
      stdout: firstWritePrefixed(featureFilteredOutput(process.stdout, features), handoff.erase),
      exitOnCtrlC: false,
      patchConsole: false,
      kittyKeyboard: { mode: input.kittyKeyboard ? "enabled" : "disabled" },
    },
  );
  try {
    await untilExitOrSignal(instance);
  } finally {
    input.close();
  }
  return EXIT.ok;
}
