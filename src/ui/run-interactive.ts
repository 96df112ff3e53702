import type { Command } from "../cli/parse-args.js";
import { UsageError } from "../cli/parse-args.js";
import { prepareSession, SessionNotFoundError } from "../cli/session-setup.js";
import { formatSessions } from "../cli/sessions-command.js";
import { listSessions } from "../store/session-index.js";
import { Launch } from "./launch.js";
import { attentionBytes } from "./status/attention.js";
import { askProjectTrust } from "./trust-prompt.js";

/** Asks the terminal to mark pastes, so a pasted newline is never taken for Enter. */
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";

/** How long quitting waits for an agent that is still starting before stopping it anyway. */
const START_SETTLE_MS = 3000;
/** Past this, something conch started refuses to end: exit rather than hang the user's shell. */
const FORCE_EXIT_MS = 8000;

/** A wait that does not keep the process alive once nothing else does. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The saved sessions, this directory's first, as the `conch sessions` table. */
async function sessionTable(cwd: string): Promise<string> {
  const all = await listSessions();
  return formatSessions([...all.filter((r) => r.cwd === cwd), ...all.filter((r) => r.cwd !== cwd)].slice(0, 20));
}

/**
 * The interactive session: draws the app at once, starts the agent behind it (a slow agent never
 * holds up the prompt), sends the command-line prompt when the session opens, and on quit stops
 * the agent and everything it started. Returns the exit code.
 */
export async function runInteractive(cmd: Extract<Command, { kind: "interactive" }>, eraseInstantPrompt: () => void = () => undefined): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write("conch: the interactive UI needs a terminal; for scripts use conch -p\n");
    return 2;
  }
  let prepared;
  try {
    prepared = await prepareSession(cmd, cmd.permissions ?? "ask", undefined, (project) => {
      eraseInstantPrompt();
      return askProjectTrust(project);
    });
  } catch (err) {
    eraseInstantPrompt();
    process.stderr.write(`conch: ${(err as Error).message}\n`);
    return err instanceof UsageError ? 2 : err instanceof SessionNotFoundError ? 4 : 1;
  }
  const { orchestrator, recorder, agent, mode } = prepared;
  const cwd = orchestrator.opts.cwd;
  // Whatever happens, no agent or terminal process outlives conch.
  process.on("exit", () => orchestrator.killNow());

  const launch = new Launch();
  const notify = cmd.notify
    ? (message: string) => {
        // Straight to the terminal, between Ink's frames: neither sequence moves the cursor.
        process.stdout.write(attentionBytes(message));
      }
    : undefined;

  const [{ createElement }, { render }, { App }] = await Promise.all([import("react"), import("ink"), import("./app.js")]);

  eraseInstantPrompt();
  process.stdout.write(BRACKETED_PASTE_ON);
  const ink = render(
    createElement(App, { session: orchestrator, agentName: agent.name, agentCommand: agent.command, cwd, launch, notify, bracketedPaste: true, listSessions: () => sessionTable(cwd) }),
    { exitOnCtrlC: false, patchConsole: false, kittyKeyboard: { mode: "auto" } },
  );
  // A signal quits like Ctrl-C twice (what is pending is answered `cancelled`, the turn cancelled,
  // the agent stopped); a second one while that runs kills what is left at once.
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  let signalled = false;
  const onSignal = () => {
    if (signalled) {
      orchestrator.killNow();
      process.exit(130);
    }
    signalled = true;
    ink.unmount();
  };
  for (const signal of signals) process.on(signal, onSignal);

  // The first frame is written synchronously by render(); start the agent behind it.
  let started: Promise<boolean> = Promise.resolve(false);
  setImmediate(() => {
    started = launch.run(() => orchestrator.start(mode)).then((ok) => {
      if (ok && cmd.prompt) orchestrator.send(cmd.prompt);
      return ok;
    });
  });

  await ink.waitUntilExit();
  process.stdout.write(BRACKETED_PASTE_OFF);
  const force = setTimeout(() => process.exit(0), FORCE_EXIT_MS);
  force.unref();
  await Promise.race([started, delay(START_SETTLE_MS)]);
  await orchestrator.shutdown();
  for (const signal of signals) process.off(signal, onSignal);
  await recorder.close();
  return 0;
}
