import { EXIT } from "../../errors/conch-error.js";
import type { SessionSource } from "../session-port.js";
import { loadRenderLibs } from "../render/render-libs.js";
import { RowCache } from "../transcript/row-cache.js";
import { TranscriptPrinter } from "../transcript/transcript-printer.js";
import { onQuitSignals, untilExitOrSignal } from "../tty/quit-signals.js";
import { detectTerminalFeatures, featureFilteredOutput } from "../tty/terminal-features.js";
import type { WriterView } from "./attach-app.js";

/** How often the view looks at whether the writing conch still runs. */
const WRITER_CHECK_MS = 1000;
/** Width of the rows a plain (piped) attach prints. */
const PLAIN_WIDTH = 100;

/** What `runAttach` needs: the session followed (cli/attach-command.ts follows its log), and where to draw. */
export interface AttachOptions {
  following: Following;
  sessionId: string;
  /** Draw the Ink view (a terminal on both sides); otherwise print settled rows as plain text. */
  interactive: boolean;
  out: (text: string) => void;
}

/**
 * `conch attach`'s view of a session another conch writes, read-only: in a terminal the TUI's
 * transcript and status; piped, each settled item as plain rows, until no conch writes the session
 * any more. Returns the exit code.
 */
export function runAttach(opts: AttachOptions): Promise<number> {
  return opts.interactive ? attachInteractive(opts, opts.following) : attachPlain(opts, opts.following);
}

/** A session followed from its log, as the two ways of showing it use it. */
export interface Following {
  session: SessionSource;
  /** Reads what the log got since the last look, now. */
  catchUp(): void;
  writer(): WriterView;
  /** Looks at the writer again; true when that changed what the view says. */
  checkWriter(): boolean;
  /** Sets what to run when something besides the state changed (the log went away). */
  onRedraw(fn: () => void): void;
}

async function attachInteractive(opts: AttachOptions, { session, writer, checkWriter, onRedraw }: Following): Promise<number> {
  const [react, { render }, { AttachApp }] = await Promise.all([import("react"), import("ink"), import("./attach-app.js")]);
  const createElement = react.default.createElement;
  const features = detectTerminalFeatures();
  const element = () => createElement(AttachApp, { session, sessionId: opts.sessionId, writer: writer(), features });
  const instance = render(element(), { stdout: featureFilteredOutput(process.stdout, features), exitOnCtrlC: false, patchConsole: false });
  const redraw = () => instance.rerender(element());
  onRedraw(redraw);
  const timer = setInterval(() => {
    if (checkWriter()) redraw();
  }, WRITER_CHECK_MS);
  try {
    await untilExitOrSignal(instance);
  } finally {
    clearInterval(timer);
  }
  return EXIT.ok;
}

/**
 * Without a terminal (a pipe, a file): each item is printed once it has settled, as plain rows.
 * It follows until no conch writes the session any more, then prints what is left and ends.
 */
async function attachPlain(opts: AttachOptions, { session, catchUp, writer, checkWriter, onRedraw }: Following): Promise<number> {
  await loadRenderLibs();
  const cache = new RowCache();
  const printer = new TranscriptPrinter((item, width) => cache.settled(item, session.state, { width, expanded: false }));
  const print = () => {
    const plan = printer.plan(session.state, PLAIN_WIDTH, Infinity, 0);
    if (plan.rows.length) opts.out(`${plan.rows.join("\n")}\n`);
    return plan;
  };
  const finish = () => {
    // The writer appends its last events before it lets the session go.
    catchUp();
    const plan = print();
    // The writer is gone: what never settled is printed as it stands.
    const rest = plan.live.flatMap((item) => [
      ...(item.kind === "user" ? [] : [""]),
      ...cache.settled(item, session.state, { width: PLAIN_WIDTH, expanded: false }),
    ]);
    if (rest.length) opts.out(`${rest.join("\n")}\n`);
  };
  return new Promise<number>((resolve) => {
    const done = (code: number) => {
      clearInterval(timer);
      off();
      offSignals();
      resolve(code);
    };
    const off = session.subscribe(() => print());
    const check = () => {
      checkWriter();
      if (writer().kind === "live") return;
      finish();
      done(0);
    };
    onRedraw(check);
    const timer = setInterval(check, WRITER_CHECK_MS);
    const offSignals = onQuitSignals(() => {
      finish();
      done(130);
    });
    print();
    check();
  });
}
