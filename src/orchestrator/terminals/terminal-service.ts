import {
  RequestError,
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  type KillTerminalRequest,
  type ReleaseTerminalRequest,
  type TerminalOutputRequest,
  type TerminalOutputResponse,
  type WaitForTerminalExitRequest,
  type WaitForTerminalExitResponse,
} from "@agentclientprotocol/sdk";
import type { SessionEvent, SessionEventInput } from "../../session/events.js";
import type { AgentCommand } from "../../agents/agent-process.js";
import type { ClientTerminal } from "../../terminals/client-terminal.js";
import type { Unsubscribe } from "../../terminals/listener-set.js";
import { TerminalRegistry, type AnyTerminal, type TerminalRegistryOptions } from "../../terminals/terminal-registry.js";
import { readTerminalMeta } from "../../session/terminal-meta.js";
import type { TerminalService } from "../ports.js";

function agentError(err: unknown): RequestError {
  return err instanceof RequestError ? err : RequestError.invalidParams(undefined, (err as Error).message);
}

/**
 * Serves `terminal/*` from a TerminalRegistry and mirrors every terminal into the session as
 * events (started, output, exited), so the log can rebuild a pane after a resume. Display-only
 * terminals are fed from tool call `_meta` as events pass by.
 */
export class RegistryTerminalService implements TerminalService {
  readonly registry: TerminalRegistry;
  /** The terminals that run the user's own commands. */
  private readonly userTerminals = new Set<string>();
  /** Display terminals a replay has shown again (their screen is the replay's from then on). */
  private replayed = new Set<string>();

  /** `size`: what a new client terminal starts at (the pane a view will draw it in). */
  constructor(
    private readonly emit: (ev: SessionEventInput) => void,
    root: string,
    size?: TerminalRegistryOptions["size"],
  ) {
    this.registry = new TerminalRegistry({ root, size });
  }

  /**
   * Feeds display terminals from an event's tool call `_meta`, and rebuilds a logged client
   * terminal's screen at the size its command had; called for live and logged events.
   */
  observe(ev: SessionEvent): void {
    if (ev.type === "terminal_started" && !this.registry.get(ev.terminalId)) {
      // A client terminal from a previous process (attach, resume): shown read-only at its size.
      const replay = this.registry.openDisplayTerminal(ev.terminalId, ev.cwd || undefined);
      if (replay && ev.cols && ev.rows) replay.resize(ev.cols, ev.rows);
    } else if (ev.type === "terminal_resized" && this.registry.get(ev.terminalId)?.kind === "display") {
      this.registry.get(ev.terminalId)?.resize(ev.cols, ev.rows);
    } else if (ev.type === "update") {
      const u = ev.notification.update as { sessionUpdate?: string; _meta?: Record<string, unknown> | null };
      if ((u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") && u._meta) {
        // A replay that shows a command's terminal (codex 2.x) brings all its output: it replaces
        // the screen kept from conch's own log, once, rather than following it.
        const info = ev.history ? readTerminalMeta(u._meta).info : undefined;
        if (info && !this.replayed.has(info.terminalId)) {
          this.replayed.add(info.terminalId);
          if (this.registry.get(info.terminalId)) this.registry.replaceDisplayTerminal(info.terminalId, info.cwd);
        }
        this.registry.applyMeta(u._meta);
      }
    } else if (ev.type === "terminal_output" && !this.registry.get(ev.terminalId)) {
      // A client terminal from a previous process: show its last output read-only.
      this.registry.openDisplayTerminal(ev.terminalId);
      this.registry.appendDisplayOutput(ev.terminalId, ev.data);
    } else if (ev.type === "terminal_output" && this.registry.get(ev.terminalId)?.kind === "display") {
      this.registry.appendDisplayOutput(ev.terminalId, ev.data);
    } else if (ev.type === "terminal_exited" && this.registry.get(ev.terminalId)?.kind === "display") {
      this.registry.exitDisplayTerminal(ev.terminalId, ev.exitCode, ev.signal);
    } else if (ev.type === "agent_exited") {
      // An agent's own terminal reports its exit through the agent: gone with it, none will come.
      for (const t of this.registry.list()) if (t.kind === "display" && !t.exitStatus) this.registry.exitDisplayTerminal(t.id, null, null);
    }
  }

  async create(req: CreateTerminalRequest): Promise<CreateTerminalResponse> {
    let term;
    try {
      term = await this.registry.createClientTerminal(req);
    } catch (err) {
      throw agentError(err);
    }
    return { terminalId: this.mirror(term, req.command, req.args ?? []) };
  }

  /** Runs an agent's login command in a pane the user types into (not confined: it is the user's own). */
  async runLogin(command: AgentCommand, cwd: string): Promise<{ exitCode: number | null; signal: string | null }> {
    const env = Object.entries(command.env ?? {}).map(([name, value]) => ({ name, value }));
    const term = await this.registry.createClientTerminal(
      { command: command.command, args: command.args, env, cwd },
      { confineCwd: false },
    );
    this.mirror(term, command.command, command.args);
    return term.waitForExit();
  }

  /**
   * The user's own command (`!cmd`): their shell runs the line in the session's folder, in a PTY
   * like the agent's (confined to the workspace, stopped with its whole tree), marked as theirs.
   */
  async runUserCommand(line: string): Promise<string> {
    const shell = process.env.SHELL || "/bin/sh";
    const term = await this.registry.createClientTerminal({ command: shell, args: ["-c", line] });
    this.userTerminals.add(term.id);
    return this.mirror(term, shell, ["-c", line], "user");
  }

  /** The agent is gone: nobody will read or release the terminals it made, so they stop now. */
  stopAgentTerminals(): void {
    for (const t of this.registry.list()) if (t.kind === "client" && !this.userTerminals.has(t.id) && t.exitStatus === null) t.kill();
  }

  /** Mirrors a client terminal into the session as events; returns its id. */
  private mirror(term: ClientTerminal, command: string, args: string[], by?: "user"): string {
    const id = term.id;
    const { cols, rows } = term.screen;
    this.emit({ type: "terminal_started", terminalId: id, command, args, cwd: term.cwd ?? "", cols, rows, ...(by ? { by } : {}) });
    // The terminal tells its output with each frame of its screen (~30 a second, a flood's 10), the
    // output before a resize or the exit first: one event per frame for the log and the reducer.
    term.onOutput((data) => this.emit({ type: "terminal_output", terminalId: id, data }));
    term.onResize((size) => this.emit({ type: "terminal_resized", terminalId: id, ...size }));
    term.onExit((status) => this.emit({ type: "terminal_exited", terminalId: id, exitCode: status.exitCode, signal: status.signal }));
    return id;
  }

  async output(req: TerminalOutputRequest): Promise<TerminalOutputResponse> {
    try {
      return this.registry.clientTerminal(req.terminalId).output();
    } catch (err) {
      throw agentError(err);
    }
  }

  async waitForExit(req: WaitForTerminalExitRequest): Promise<WaitForTerminalExitResponse> {
    let term;
    try {
      term = this.registry.clientTerminal(req.terminalId);
    } catch (err) {
      throw agentError(err);
    }
    return term.waitForExit();
  }

  async kill(req: KillTerminalRequest): Promise<void> {
    try {
      this.registry.clientTerminal(req.terminalId).kill();
    } catch (err) {
      throw agentError(err);
    }
  }

  async release(req: ReleaseTerminalRequest): Promise<void> {
    try {
      this.registry.release(req.terminalId);
    } catch (err) {
      throw agentError(err);
    }
  }

  /** Any terminal of the session, for the UI to draw. */
  get(id: string): AnyTerminal | undefined {
    return this.registry.get(id);
  }

  /** Types into a client terminal (the focused pane). */
  write(id: string, data: string): void {
    const t = this.registry.get(id);
    if (t?.kind === "client" && t.exitStatus === null) t.write(data);
  }

  /** Screen changes, exits and releases: what a pane redraws on (a new terminal shows nothing yet). */
  onScreenChange(fn: () => void): Unsubscribe {
    return this.registry.subscribe((change) => change.type !== "added" && fn());
  }

  dispose(): void {
    void this.registry.dispose();
  }
}
