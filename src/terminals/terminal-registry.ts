import type { CreateTerminalRequest } from "@agentclientprotocol/sdk";
import { ClientTerminal } from "./client-terminal.js";
import { DisplayTerminal } from "./display-terminal.js";
import { ListenerSet, type Unsubscribe } from "./listener-set.js";
import { OutputLog } from "./output-log.js";
import type { ExitStatus } from "./terminal.js";
import { readTerminalMeta, type TerminalMeta } from "./terminal-meta.js";
import { resolveWorkingDirectory } from "./working-directory.js";

/** Either kind of terminal; narrow on `kind`. */
export type AnyTerminal = ClientTerminal | DisplayTerminal;

/** The fields of ACP `terminal/create` that say what to run. */
export type CreateClientTerminalParams = Pick<CreateTerminalRequest, "command" | "args" | "env" | "cwd" | "outputByteLimit">;

/** What changed in a registry, for a view to refresh. `screen` fires often: throttle redraws. */
export type TerminalRegistryChange =
  | { type: "added"; id: string; kind: AnyTerminal["kind"] }
  | { type: "screen"; id: string }
  | { type: "exited"; id: string; status: ExitStatus }
  | { type: "released"; id: string }
  | { type: "disposed" };

export interface TerminalRegistryOptions {
  /** The session root: default cwd of client terminals and, when confined, the boundary for it. */
  root?: string;
  cols?: number;
  rows?: number;
  /**
   * The size a client terminal starts at, asked when it is created: the pane a view will draw it
   * in, so the command's first output is laid out for that width (else `cols` and `rows`).
   */
  size?: () => { cols: number; rows: number } | undefined;
  scrollback?: number;
  /** Output kept per terminal id whose `terminal_info` has not arrived yet (UTF-8 bytes). */
  pendingByteLimit?: number;
  /** How many such ids are remembered; the oldest are forgotten first. */
  pendingTerminalLimit?: number;
  killGraceMs?: number;
}

interface PendingDisplayFacts {
  output: OutputLog;
  exit?: { exitCode: number | null; signal: string | null };
}

const DEFAULT_PENDING_BYTE_LIMIT = 1024 * 1024;
const DEFAULT_PENDING_TERMINAL_LIMIT = 256;

/** Every terminal of one session, both kinds, by id; the one place that creates and ends them. */
export class TerminalRegistry {
  private readonly terminals = new Map<string, AnyTerminal>();
  private readonly pending = new Map<string, PendingDisplayFacts>();
  private readonly changes = new ListenerSet<TerminalRegistryChange>();
  private readonly root: string;
  private disposed = false;

  constructor(private readonly options: TerminalRegistryOptions = {}) {
    this.root = options.root ?? process.cwd();
  }

  /**
   * Runs a command for ACP `terminal/create` and returns its terminal (`.id` is the answer). With
   * `confineCwd` (the default) the real cwd must be inside the session root. Throws an Error for the
   * agent when the cwd is refused or missing, or the program does not exist.
   */
  async createClientTerminal(
    params: CreateClientTerminalParams,
    { confineCwd = true }: { confineCwd?: boolean } = {},
  ): Promise<ClientTerminal> {
    this.assertOpen();
    const cwd = await resolveWorkingDirectory(params.cwd, this.root, confineCwd);
    this.assertOpen();
    const terminal = new ClientTerminal({
      command: params.command,
      args: params.args,
      env: params.env?.map(({ name, value }) => ({ name, value })),
      cwd,
      outputByteLimit: params.outputByteLimit,
      ...(this.options.size?.() ?? { cols: this.options.cols, rows: this.options.rows }),
      scrollback: this.options.scrollback,
      killGraceMs: this.options.killGraceMs,
    });
    this.add(terminal);
    return terminal;
  }

  /**
   * The client terminal an ACP `terminal/*` request names. Throws an Error for the agent when the id
   * is unknown, names an agent's own terminal, or was released.
   */
  clientTerminal(id: string): ClientTerminal {
    const terminal = this.terminals.get(id);
    if (!terminal || terminal.kind !== "client") throw new Error(`Unknown terminal: ${id}`);
    if (terminal.released) throw new Error(`Terminal ${id} was released`);
    return terminal;
  }

  /** ACP `terminal/release`: kills the command if running and frees it; its screen stays listed. */
  release(id: string): void {
    const terminal = this.clientTerminal(id);
    terminal.release();
    this.changes.emit({ type: "released", id });
  }

  /** Applies the terminal facts in a tool call's `_meta` and returns what was read from it. */
  applyMeta(meta: Record<string, unknown> | null | undefined): TerminalMeta {
    const facts = readTerminalMeta(meta);
    if (facts.info) this.openDisplayTerminal(facts.info.terminalId, facts.info.cwd);
    if (facts.output) this.appendDisplayOutput(facts.output.terminalId, facts.output.data);
    if (facts.exit) this.exitDisplayTerminal(facts.exit.terminalId, facts.exit.exitCode, facts.exit.signal);
    return facts;
  }

  /**
   * `terminal_info`: creates the display terminal (once; a repeat only fills in the cwd) and
   * replays the output and exit that arrived for it earlier.
   */
  openDisplayTerminal(id: string, cwd?: string): DisplayTerminal | undefined {
    if (this.disposed) return undefined;
    const existing = this.terminals.get(id);
    if (existing) {
      if (existing.kind !== "display") return undefined;
      if (cwd && existing.cwd === null) existing.setCwd(cwd);
      return existing;
    }
    const terminal = new DisplayTerminal(id, {
      cwd,
      cols: this.options.cols,
      rows: this.options.rows,
      scrollback: this.options.scrollback,
    });
    this.add(terminal);
    const early = this.pending.get(id);
    if (early) {
      this.pending.delete(id);
      terminal.write(early.output.text);
      if (early.exit) terminal.exit(early.exit.exitCode, early.exit.signal);
    }
    return terminal;
  }

  /**
   * A fresh display terminal in place of one with the same id: an agent's replay of a command brings
   * its whole output again, which must not follow the screen conch kept from its own log.
   */
  replaceDisplayTerminal(id: string, cwd?: string): DisplayTerminal | undefined {
    const old = this.terminals.get(id);
    if (old?.kind !== "display") return this.openDisplayTerminal(id, cwd);
    this.terminals.delete(id);
    old.screen.dispose();
    return this.openDisplayTerminal(id, cwd ?? old.cwd ?? undefined);
  }

  /** `terminal_output`: appends to the display terminal, or keeps it until its `terminal_info` arrives. */
  appendDisplayOutput(id: string, data: string): void {
    if (this.disposed) return;
    const terminal = this.terminals.get(id);
    if (terminal) {
      if (terminal.kind === "display") terminal.write(data);
      return;
    }
    this.pendingFacts(id).output.append(data);
  }

  /** `terminal_exit`: records the exit, or keeps it until the `terminal_info` arrives. */
  exitDisplayTerminal(id: string, exitCode: number | null, signal: string | null): void {
    if (this.disposed) return;
    const terminal = this.terminals.get(id);
    if (terminal) {
      if (terminal.kind === "display") terminal.exit(exitCode, signal);
      return;
    }
    const facts = this.pendingFacts(id);
    facts.exit ??= { exitCode, signal };
  }

  /** Any terminal by id, released ones included (their screens stay for the UI). */
  get(id: string): AnyTerminal | undefined {
    return this.terminals.get(id);
  }

  /** All terminals, oldest first. */
  list(): AnyTerminal[] {
    return [...this.terminals.values()];
  }

  /** Listens to changes; returns the function that stops listening. */
  subscribe(listener: (change: TerminalRegistryChange) => void): Unsubscribe {
    return this.changes.add(listener);
  }

  /**
   * Ends the session's terminals: every client command (and its children) is killed, SIGKILL after
   * the grace period. Resolves once they exited (or the wait gave up), then frees all screens.
   */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const clients = this.list().filter((terminal): terminal is ClientTerminal => terminal.kind === "client");
    for (const terminal of clients) terminal.release();
    const graceMs = this.options.killGraceMs ?? 2000;
    await Promise.race([Promise.all(clients.map((terminal) => terminal.waitForExit())), delay(graceMs + 1000)]);
    for (const terminal of this.terminals.values()) terminal.screen.dispose();
    this.pending.clear();
    this.changes.emit({ type: "disposed" });
    this.changes.clear();
  }

  private add(terminal: AnyTerminal): void {
    this.terminals.set(terminal.id, terminal);
    terminal.onScreenChange(() => this.changes.emit({ type: "screen", id: terminal.id }));
    terminal.onExit((status) => this.changes.emit({ type: "exited", id: terminal.id, status }));
    this.changes.emit({ type: "added", id: terminal.id, kind: terminal.kind });
  }

  private pendingFacts(id: string): PendingDisplayFacts {
    let facts = this.pending.get(id);
    if (!facts) {
      const limit = this.options.pendingTerminalLimit ?? DEFAULT_PENDING_TERMINAL_LIMIT;
      // Ids whose terminal_info never comes must not pile up for the whole session.
      while (this.pending.size >= limit) {
        const oldest = this.pending.keys().next().value;
        if (oldest === undefined) break;
        this.pending.delete(oldest);
      }
      facts = { output: new OutputLog(this.options.pendingByteLimit ?? DEFAULT_PENDING_BYTE_LIMIT) };
      this.pending.set(id, facts);
    }
    return facts;
  }

  private assertOpen(): void {
    if (this.disposed) throw new Error("The session's terminals are closed");
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
