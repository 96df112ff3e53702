/** What the user's terminal understands beyond plain text and colours, so conch can use it. */
export interface TerminalFeatures {
  /** DEC mode 2026: a frame drawn between begin/end marks shows at once, never half-drawn. */
  syncOutput: boolean;
  /** OSC 8 hyperlinks: a file path in a tool call opens the file. */
  hyperlinks: boolean;
  /** OSC 133 prompt marks: the terminal can jump from one message to the next. */
  promptMarks: boolean;
  /** OSC 9;4 progress: the tab or title bar shows a turn is running. */
  progress: boolean;
}

/** None of them: a terminal conch does not know gets plain text and colours only. */
export const NO_FEATURES: TerminalFeatures = { syncOutput: false, hyperlinks: false, promptMarks: false, progress: false };

const ALL: TerminalFeatures = { syncOutput: true, hyperlinks: true, promptMarks: true, progress: true };

const NAMES: Record<string, keyof TerminalFeatures> = {
  sync: "syncOutput",
  links: "hyperlinks",
  marks: "promptMarks",
  progress: "progress",
};

/**
 * The features of the terminal conch runs in, from what terminals say about themselves in the
 * environment. Only terminals known to support a feature get it; inside tmux or screen, which
 * pass sequences on only when configured to, none. `CONCH_TERMINAL_FEATURES` overrides:
 * `none`, `all`, or a list such as `sync,links,marks,progress`.
 */
export function detectTerminalFeatures(env: NodeJS.ProcessEnv = process.env): TerminalFeatures {
  const override = env.CONCH_TERMINAL_FEATURES?.trim().toLowerCase();
  if (override) {
    if (override === "all") return { ...ALL };
    const out = { ...NO_FEATURES };
    for (const name of override.split(/[,\s]+/)) if (NAMES[name]) out[NAMES[name]] = true;
    return out;
  }
  if (env.TMUX || env.STY || /^(screen|tmux)/.test(env.TERM ?? "")) return { ...NO_FEATURES };
  const program = env.TERM_PROGRAM ?? "";
  const term = env.TERM ?? "";
  if (program === "WezTerm" || program === "ghostty" || term === "xterm-ghostty" || env.WT_SESSION) return { ...ALL };
  if (term === "xterm-kitty" || env.KITTY_WINDOW_ID) return { syncOutput: true, hyperlinks: true, promptMarks: true, progress: false };
  if (program === "iTerm.app" || program === "vscode" || /^foot/.test(term) || env.TERMINAL_NAME === "contour") {
    return { syncOutput: true, hyperlinks: true, promptMarks: true, progress: false };
  }
  if (term === "alacritty") return { syncOutput: true, hyperlinks: true, promptMarks: false, progress: false };
  return { ...NO_FEATURES };
}

/** Where a synchronized frame begins: the terminal shows nothing of it until its end mark. */
export const BEGIN_SYNC = "\u001b[?2026h";
const END_SYNC = "\u001b[?2026l";

/**
 * The output stream Ink draws to: the real one, except that the synchronized-output marks Ink
 * puts around every frame are left out for a terminal that does not understand them.
 */
export function featureFilteredOutput(stdout: NodeJS.WriteStream, features: TerminalFeatures): NodeJS.WriteStream {
  if (features.syncOutput) return stdout;
  return new Proxy(stdout, {
    get(target, prop, receiver) {
      if (prop === "write") {
        return (chunk: unknown, ...rest: unknown[]) => {
          const text = typeof chunk === "string" ? chunk.replaceAll(BEGIN_SYNC, "").replaceAll(END_SYNC, "") : chunk;
          if (text === "") {
            const cb = rest.find((r) => typeof r === "function") as (() => void) | undefined;
            cb?.();
            return true;
          }
          return (target.write as (...args: unknown[]) => boolean).call(target, text, ...rest);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** OSC 8: `text` as a link to a file, for a terminal that takes links; the path must be absolute and plain. */
export function fileLink(text: string, absolutePath: string, features: TerminalFeatures, host = ""): string {
  if (!features.hyperlinks || !absolutePath.startsWith("/") || /[\u0000-\u001f\u007f-\u009f]/.test(absolutePath)) return text;
  const url = `file://${host}${encodeURI(absolutePath).replace(/[;?#]/g, encodeURIComponent)}`;
  return `\u001b]8;;${url}\u001b\\${text}\u001b]8;;\u001b\\`;
}

/** OSC 133 marks: a prompt starts (A), the prompt ends and its answer starts (B, C), the answer ends (D). */
export const PROMPT_MARK = {
  start: "\u001b]133;A\u0007",
  end: "\u001b]133;B\u0007\u001b]133;C\u0007",
  outputEnd: "\u001b]133;D\u0007",
} as const;

/** OSC 9;4: the terminal shows a running turn as indeterminate progress, and clears it. */
export const PROGRESS = { busy: "\u001b]9;4;3;0\u0007", done: "\u001b]9;4;0;0\u0007" } as const;
