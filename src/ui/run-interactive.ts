import type { Command } from "../cli/parse-args.js";
import { UsageError } from "../cli/parse-args.js";
import { prepareSession, SessionNotFoundError } from "../cli/session-setup.js";
import { formatSessions } from "../cli/sessions-command.js";
import { listSessions } from "../store/session-index.js";
import { InstantPrompt, agentLabel } from "./instant-prompt.js";
import { terminalHandoff } from "./input/external-editor.js";
import { speaksKittyKeyboard, TerminalInput } from "./input/terminal-input.js";
import { Launch } from "./launch.js";
import { attentionBytes } from "./status/attention.js";
import { askProjectTrust } from "./trust-prompt.js";
import { detectTerminalFeatures, featureFilteredOutput } from "./terminal-features.js";

/** How long quitting waits for an agent that is still starting before stopping it anyway. */
const START_SETTLE_MS = 3000;
/** Past this, something conch started refuses to end: exit rather than hang the user's shell. */
const FORCE_EXIT_MS = 8000;
/** The exit code when the user quits (Ctrl-C, a signal) before the UI is up. */
const INTERRUPTED = 130;
/**
 * Ink's frame cap. The session's state reaches React at most ~30 times a second (FRAME_MS), so a
 * stream costs that many frames; the cap only decides how long a typed key waits for the frame that
 * shows it: at 60, a frame at most 17 ms after the last.
 */
const INK_MAX_FPS = 60;

/** A wait that does not keep the process alive once nothing else does. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The saved sessions, this directory's first, as the `conch sessions` table. */
async function sessionTable(cwd: string): Promise<string> {
  const all = await listSessions();
  return formatSessions([...all.filter((r) => r.cwd === cwd), ...all.filter((r) => r.cwd !== cwd)].slice(0, 20));
}

/** The terminal as `main` set it up in its first milliseconds: keys kept, a prompt on screen. */
export interface StartupTerminal {
  input: TerminalInput;
  prompt: InstantPrompt;
}

/** The UI's modules: the largest part of conch, loaded while the agent starts. */
async function loadUi() {
  const [react, { render }, { App }] = await Promise.all([import("react"), import("ink"), import("./app.js")]);
  // React is CommonJS: bundled, a dynamic import gives only its default export.
  return { createElement: react.default.createElement, render, App };
}

/**
 * The interactive session. The agent starts first (spawn, initialize, session/new), and the UI
 * loads while it does; keys typed meanwhile are kept and handed to the editor in order, and a
 * message sent before the session opens waits in the queue until it does. On quit it stops the
 * agent and everything it started. Returns the exit code.
 */
export async function runInteractive(cmd: Extract<Command, { kind: "interactive" }>, terminal?: StartupTerminal): Promise<number> {
  if (!terminal) {
    process.stderr.write("conch: the interactive UI needs a terminal; for scripts use conch -p\n");
    return 2;
  }
  let { input, prompt } = terminal;
  const giveBackTerminal = () => {
    prompt.erase();
    input.close();
  };
  let prepared;
  try {
    prepared = await prepareSession(cmd, cmd.permissions ?? "ask", undefined, async (project) => {
      // The question takes the terminal as a plain line prompt: keys typed while conch was starting
      // are dropped with the kept ones, so they cannot answer it. Then the terminal is taken again.
      giveBackTerminal();
      const choice = await askProjectTrust(project);
      input = TerminalInput.open(process.stdin, process.stdout, { askKitty: speaksKittyKeyboard(process.env) });
      prompt = new InstantPrompt(process.stdout, agentLabel(cmd.agent), cmd.cwd);
      const shown = prompt;
      input.onKeysHeld((reads) => shown.show(reads));
      return choice;
    });
  } catch (err) {
    giveBackTerminal();
    process.stderr.write(`conch: ${(err as Error).message}\n`);
    return err instanceof UsageError ? 2 : err instanceof SessionNotFoundError ? 4 : 1;
  }
  const { orchestrator, recorder, agent, mode } = prepared;
  const cwd = orchestrator.opts.cwd;
  // Whatever happens, no agent or terminal process outlives conch.
  process.on("exit", () => orchestrator.killNow());

  const launch = new Launch();
  // Queued at once: it goes out the moment the session opens, before anything typed meanwhile.
  if (cmd.prompt) orchestrator.send(cmd.prompt);
  // The agent starts now; its start overlaps the UI's loading instead of following it.
  const started: Promise<boolean> = input.interrupted ? Promise.resolve(false) : launch.run(() => orchestrator.start(mode));
  const stop = async (): Promise<void> => {
    const force = setTimeout(() => process.exit(0), FORCE_EXIT_MS);
    force.unref();
    await Promise.race([started, delay(START_SETTLE_MS)]);
    await orchestrator.shutdown();
    await recorder.close();
  };

  let ink: { unmount(): void } | undefined;
  const interrupted = new Promise<undefined>((resolve) => input.whenInterrupted(() => resolve(undefined)));
  // A signal quits like Ctrl-C twice (what is pending is answered `cancelled`, the turn cancelled,
  // the agent stopped); a second one while that runs kills what is left at once.
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  let signalled = false;
  const onSignal = () => {
    if (signalled) {
      orchestrator.killNow();
      process.exit(INTERRUPTED);
    }
    signalled = true;
    if (ink) ink.unmount();
    else input.interrupt();
  };
  for (const signal of signals) process.on(signal, onSignal);
  const offSignals = () => {
    for (const signal of signals) process.off(signal, onSignal);
  };

  const ui = await Promise.race([loadUi(), interrupted]);
  if (!ui) {
    // Ctrl-C (or a signal) before the UI was up: the user wants out, not a UI.
    giveBackTerminal();
    await stop();
    offSignals();
    return INTERRUPTED;
  }
  const notify = cmd.notify
    ? (message: string) => {
        // Straight to the terminal, between Ink's frames: neither sequence moves the cursor.
        process.stdout.write(attentionBytes(message));
      }
    : undefined;

  prompt.erase();
  const features = detectTerminalFeatures();
  const instance = ui.render(
    ui.createElement(ui.App, {
      session: orchestrator,
      agentName: agent.name,
      agentCommand: agent.command,
      cwd,
      launch,
      notify,
      bracketedPaste: true,
      listSessions: () => sessionTable(cwd),
      features,
      handoff: terminalHandoff(input, process.stdout),
    }),
    // The keys typed so far come first (InkInput is the part of a ReadStream Ink uses); the kitty
    // query was asked, and answered, at startup.
    // Ink wraps every frame in synchronized-output marks; a terminal that does not know them gets none.
    {
      stdin: input.stream() as unknown as NodeJS.ReadStream,
      stdout: featureFilteredOutput(process.stdout, features),
      maxFps: INK_MAX_FPS,
      exitOnCtrlC: false,
      patchConsole: false,
      kittyKeyboard: { mode: input.kittyKeyboard ? "enabled" : "disabled" },
    },
  );
  ink = instance;

  await instance.waitUntilExit();
  input.close();
  await stop();
  offSignals();
  return 0;
}
