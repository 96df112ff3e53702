import type { AgentCommand } from "../../agents/agent-process.js";
import { EXIT } from "../../errors/conch-error.js";
import { terminalHandoff } from "../compose/external-editor.js";
import type { SessionPort } from "../session-port.js";
import type { StartupTerminal } from "./startup-terminal.js";
import { attentionBytes } from "../status/attention.js";
import { onQuitSignals } from "../tty/quit-signals.js";
import { detectTerminalFeatures, featureFilteredOutput } from "../tty/terminal-features.js";
import { firstWritePrefixed, instantSession } from "./instant-session.js";
import { afterInput } from "../tty/after-input.js";

/** How long quitting waits for an agent that is still starting before stopping it anyway. */
const START_SETTLE_MS = 3000;
/** Past this, something conch started refuses to end: exit rather than hang the user's shell. */
const FORCE_EXIT_MS = 8000;
/**
 * Ink's frame cap. The session's state reaches React at most ~30 times a second (FRAME_MS), so a
 * stream costs that many frames whatever the cap; the cap only decides how long a typed key waits
 * for the frame that shows it when a stream frame was just drawn: at 250, 4 ms (at 60 it was up to
 * 17 ms, a third of the 33 ms budget). Commits in one burst still make one frame and a trailing one.
 */
const INK_MAX_FPS = 250;

/** A wait that does not keep the process alive once nothing else does. */
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** What the composition root (cli/) hands the interactive UI: a session built and ready to open. */
export interface InteractiveSession {
  /** The session the UI shows and drives. */
  port: SessionPort;
  /** Starts the agent and opens the session; a failure is a `failed` event in the session's state, and shows there. */
  open(): Promise<void>;
  /** Stops the agent and everything it started, then closes the session's log. */
  close(): Promise<void>;
  /** Kills whatever conch started, at once and synchronously: for process exit and a second signal. */
  killNow(): void;
  /** The agent's name until it names itself, and how it was started (a terminal login runs it with extra arguments). */
  agentName: string;
  agentCommand: AgentCommand;
  cwd: string;
  /** A first message, sent the moment the session opens. */
  prompt?: string;
  /** Ring for the user's attention when a long turn ends (off with --no-notify). */
  notify: boolean;
  /** The saved sessions as a table, for /sessions. */
  listSessions(): Promise<string>;
  /** The App's first frame is drawn (a resumed log waits for it). */
  shown?(): void;
  /** A stored session is resumed: its history is read once the App is drawn. */
  resuming?: boolean;
}

/**
 * The UI's modules: the largest part of conch, loaded while the agent starts. Ink (with React's
 * reconciler and yoga) and the App's own modules each take a long task to compile and run: keys
 * typed meanwhile are read between the two.
 */
async function loadUi(warm: boolean) {
  const [react, ink] = await Promise.all([import("react"), import("ink")]);
  await afterInput();
  if (warm) {
    warmUp(react.default, ink);
    await afterInput();
  }
  const { App } = await import("./app.js");
  // React is CommonJS: bundled, a dynamic import gives only its default export.
  return { createElement: react.default.createElement, render: ink.render, App };
}

/**
 * A first render runs React's reconciler, Ink's layout (yoga, WebAssembly compiled at first call)
 * and its output code for the first time: ~80-170 ms in one task on a loaded machine, the longest
 * of a start. A small tree drawn to a string in a task of its own first (no terminal is touched)
 * takes that first run, so the App's first render is shorter and a key typed meanwhile waits less.
 * Its rows and effects are thrown away; nothing it touches outlives it. Only on a resume, whose
 * history waits for the App's first frame anyway: in a new session it put the App's first frame
 * later, and a first reply waits for the App (first-prompt.mjs, 16 pairs: 11 slower).
 */
function warmUp(react: typeof import("react"), { renderToString, Box, Text }: typeof import("ink")): void {
  const h = react.createElement;
  // The hooks the App's components mount with, once each.
  const Hooks = ({ label }: { label: string }) => {
    const [count] = react.useState(1);
    const seen = react.useRef(0);
    const text = react.useMemo(() => label.repeat(count), [label, count]);
    const mark = react.useCallback(() => (seen.current += 1), []);
    react.useLayoutEffect(() => void mark(), [mark]);
    react.useEffect(() => void mark(), [mark]);
    return h(Text, { wrap: "wrap" }, text);
  };
  const row = (label: string) =>
    h(
      Box,
      { flexDirection: "row", width: "100%", marginTop: 1 },
      h(Box, { flexShrink: 0, width: 2 }, h(Text, { color: "cyan" }, "›")),
      h(Box, { flexGrow: 1, flexShrink: 1, flexDirection: "column" }, h(Hooks, { label })),
    );
  renderToString(
    h(
      Box,
      { flexDirection: "column", width: 80 },
      h(
        Box,
        { borderStyle: "round", borderColor: "yellow", paddingX: 1, flexDirection: "column" },
        h(Text, { bold: true, wrap: "truncate-end" }, "conch"),
      ),
      row("a row that is long enough to wrap at the width it is given, as a transcript's text does"),
      row("…"),
      h(
        Box,
        { flexDirection: "row", marginLeft: 1 },
        h(Text, { dimColor: true, wrap: "truncate-end" }, "ready"),
        h(Text, { inverse: true }, " "),
      ),
    ),
    { columns: 80 },
  );
}

/**
 * The interactive session. The agent starts first (spawn, initialize, session/new), and the UI
 * loads while it does; keys typed meanwhile are kept and handed to the editor in order, and a
 * message sent before the session opens waits in the queue until it does. On quit it stops the
 * agent and everything it started. Returns the exit code.
 */
export async function runInteractive(run: InteractiveSession, terminal: StartupTerminal): Promise<number> {
  const { input } = terminal;
  const { port: session, cwd } = run;
  // Whatever happens, no agent or terminal process outlives conch.
  process.on("exit", () => run.killNow());

  // Queued at once: it goes out the moment the session opens, before anything typed meanwhile.
  if (run.prompt) session.send(run.prompt);
  // Messages sent in the instant prompt follow it, and its chrome now shows the session's state.
  terminal.prompt.attach(instantSession(session, run.agentName, cwd));
  // The agent starts now; its start overlaps the UI's loading instead of following it. A start that
  // fails is a `failed` event in the session: the status line shows it, with /restart.
  const started: Promise<unknown> = input.interrupted ? Promise.resolve() : run.open().catch(() => undefined);
  /** conch was told to end by a signal: it exits 130. */
  let signalled = false;
  const stop = async (): Promise<void> => {
    const force = setTimeout(() => process.exit(signalled ? EXIT.interrupted : EXIT.ok), FORCE_EXIT_MS);
    force.unref();
    await Promise.race([started, delay(START_SETTLE_MS)]);
    await run.close();
  };

  let ink: { unmount(): void } | undefined;
  /** The app's own quit, once it is drawn: it takes the prompt and status lines off the screen first. */
  let quitApp: (() => void) | undefined;
  const interrupted = new Promise<undefined>((resolve) => input.whenInterrupted(() => resolve(undefined)));
  // A signal quits like Ctrl-C twice (what is pending is answered `cancelled`, the turn cancelled,
  // the agent stopped); a second one while that runs kills what is left at once.
  const offSignals = onQuitSignals(() => {
    if (signalled) {
      run.killNow();
      process.exit(EXIT.interrupted);
    }
    signalled = true;
    if (quitApp) quitApp();
    else if (ink) ink.unmount();
    else input.interrupt();
  });

  const loaded = await Promise.race([loadUi(run.resuming === true), interrupted]);
  // Loading the UI's modules took a long task, and so does the App's first render: keys typed
  // meanwhile are read (and drawn by the instant prompt) between the two.
  if (loaded) await afterInput();
  const ui = input.interrupted ? undefined : loaded;
  if (!ui) {
    // Ctrl-C (or a signal) before the UI was up: the user wants out, not a UI.
    terminal.giveBack();
    await stop();
    offSignals();
    return EXIT.interrupted;
  }
  const notify = run.notify
    ? (message: string) => {
        // Straight to the terminal, between Ink's frames: neither sequence moves the cursor.
        process.stdout.write(attentionBytes(message));
      }
    : undefined;

  // The App starts from the instant prompt's editor, and its first frame clears the prompt in the same write.
  const handoff = terminal.prompt.handOff();
  const features = detectTerminalFeatures();
  const instance = ui.render(
    ui.createElement(ui.App, {
      session,
      agentName: run.agentName,
      agentCommand: run.agentCommand,
      cwd,
      notify,
      bracketedPaste: true,
      editorAtStart: handoff.editor,
      listSessions: run.listSessions,
      features,
      handoff: terminalHandoff(input, process.stdout),
      takeQuit: (quit: () => void) => {
        quitApp = quit;
      },
    }),
    // The keys typed so far come first (InkInput is the part of a ReadStream Ink uses); the kitty
    // query was asked, and answered, at startup.
    // Ink wraps every frame in synchronized-output marks; a terminal that does not know them gets none.
    {
      stdin: input.stream() as unknown as NodeJS.ReadStream,
      stdout: firstWritePrefixed(featureFilteredOutput(process.stdout, features), handoff.erase),
      maxFps: INK_MAX_FPS,
      exitOnCtrlC: false,
      patchConsole: false,
      kittyKeyboard: { mode: input.kittyKeyboard ? "enabled" : "disabled" },
    },
  );
  ink = instance;
  run.shown?.();

  await instance.waitUntilExit();
  input.close();
  await stop();
  offSignals();
  // Ended by a signal, conch says so as print mode does, whatever was pending (answered `cancelled`).
  return signalled ? EXIT.interrupted : EXIT.ok;
}
