/**
 * conch's exit codes: the one map, by name. The README's table ("Exit codes") and the usage text
 * list the same numbers; a test holds them together.
 */
export const EXIT = {
  /** The turn ended normally. */
  ok: 0,
  /** An agent or runtime error: the agent did not start, crashed, refused a setting; the session is busy. */
  failed: 1,
  /** Unknown flag, missing argument, bad value, an invalid or untrusted config. */
  usage: 2,
  /** `--timeout` reached. */
  timeout: 3,
  /** `--resume`, `--continue`, `conch export`, `conch attach` named no stored session. */
  sessionNotFound: 4,
  /** A permission was needed and the `--permissions` policy refused it. */
  permissionRefused: 5,
  /** The agent refused (`refusal`). */
  refusal: 6,
  /** `max_tokens` or `max_turn_requests`. */
  maxTokens: 7,
  /** The run went fine, but its session log could not be written whole (a full disk): `--resume` cannot show all of it. */
  notSaved: 8,
  /** Ctrl-C, SIGTERM or SIGHUP. */
  interrupted: 130,
} as const;

/** One of conch's exit codes. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What went wrong, for each kind of failure a user can meet, and the exit code it ends conch with. */
const EXIT_OF_KIND = {
  /** The command line asks for something conch cannot do (a bad flag, a `--cwd` that is no directory). */
  usage: EXIT.usage,
  /** A config file is invalid, or an untrusted project's config was refused. */
  config: EXIT.usage,
  "session-not-found": EXIT.sessionNotFound,
  /** Another conch has the session open. */
  "session-busy": EXIT.failed,
  /** The agent did not start or did not answer `initialize`; `detail` holds its stderr tail. */
  "agent-start": EXIT.failed,
  /** The agent started but could not open (new, load, resume) a session. */
  "session-open": EXIT.failed,
  /** The agent would not switch to the mode or model asked for. */
  "setting-refused": EXIT.failed,
  /** The agent wants a login that this run cannot walk a person through (print mode). */
  "login-needed": EXIT.failed,
  /** Something conch was asked to fetch could not be (the ACP registry's refresh, offline). */
  network: EXIT.failed,
  /** The run took longer than it was allowed. */
  timeout: EXIT.timeout,
} as const satisfies Record<string, ExitCode>;

/** The kinds of failure a user can meet. */
export type ErrorKind = keyof typeof EXIT_OF_KIND;

/** The exit code a kind of failure ends conch with. */
export function exitCodeOfKind(kind: ErrorKind): ExitCode {
  return EXIT_OF_KIND[kind];
}

/**
 * A failure a user can meet, made where it happens: what kind it is, a message for that user (one
 * sentence, no stack), and `detail`, lines they may need besides it (the agent's stderr tail), kept
 * apart so each reader shows it its own way. The exit code follows from the kind.
 */
export class ConchError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
    this.name = "ConchError";
  }

  /** The exit code this failure ends conch with. */
  get exitCode(): ExitCode {
    return exitCodeOfKind(this.kind);
  }
}

/** The exit code for anything thrown: a ConchError's own; anything else is a runtime error. */
export function exitCodeOf(err: unknown): ExitCode {
  return err instanceof ConchError ? err.exitCode : EXIT.failed;
}

/** The message a person sees for anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
