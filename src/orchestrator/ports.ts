import type { InitializeResponse } from "@agentclientprotocol/sdk";
import type { AgentConnection, RequestControl, TerminalHost } from "../acp/agent-connection.js";
import type { TerminalAccess } from "../terminals/terminal-access.js";
import type { AgentCommand, AgentExit } from "../agents/agent-process.js";
import type { ProcessSnapshot } from "../session/agent-processes.js";
import type { SessionEvent, SessionEventInput } from "../session/events.js";
import type { SessionState } from "../session/state.js";

// What the orchestrator's parts need from outside and from each other, each as small as one part
// uses it. The rooms implement them: agent/'s links are an `AgentPort`, record/'s recorder the
// `EventSink`, terminals/'s service the `TerminalService`.

/** What the orchestrator needs of a started agent; tests give it a scripted fake. */
export interface AgentPort {
  readonly init: InitializeResponse;
  readonly conn: Pick<
    AgentConnection,
    | "newSession"
    | "loadSession"
    | "resumeSession"
    | "forkSession"
    | "closeSession"
    | "prompt"
    | "steer"
    | "cancel"
    | "setMode"
    | "setConfigOption"
    | "setModel"
    | "authenticate"
    | "logout"
  >;
  /** Whether conch can run the agent's own command for a terminal login (not for a remote agent). */
  readonly runsLocally?: boolean;
  readonly exited: Promise<AgentExit>;
  /** Set once the process has exited. */
  readonly exit?: AgentExit;
  stop(): Promise<unknown>;
  killNow(): void;
  /** Resolves once everything sent so far has reached the agent. */
  flush?(): Promise<void>;
  /** The agent's process tree now (a local agent on Linux); undefined where it cannot be read. */
  processes?(): ProcessSnapshot | undefined;
}

/** Where the orchestrator writes its events: the durable session log (the recorder). */
export interface EventSink {
  append(event: SessionEvent): void;
  /** Write out what was appended (after each transition; a sink may gather a burst into one write). */
  flush?(): void;
  /** Make what was appended durable; called at turn boundaries. */
  sync(): void;
}

/** Client-owned terminals for `terminal/create`, what the UI draws of them, and a way to free them all. */
export interface TerminalService extends TerminalHost, TerminalAccess {
  /** Runs a login command in a pane the user can type into; resolves with its exit. */
  runLogin?(command: AgentCommand, cwd: string): Promise<{ exitCode: number | null; signal: string | null }>;
  /** Runs the user's own command line (`!cmd`) in the session's folder, in a pane of its own; resolves with its terminal id. */
  runUserCommand?(line: string): Promise<string>;
  /** The agent is gone: the terminals it created are stopped (the user's own commands run on). */
  stopAgentTerminals?(): void;
  /** Sees every event (live and from the log), to keep display terminals' screens current. */
  observe?(ev: SessionEvent): void;
  dispose(): void;
}

/** Where processes are looked at and stopped (the process table); tests pass a fake one. */
export interface ProcessProbe {
  /** The members still running as the same processes (pid and start time). */
  running(members: readonly ProcessMember[]): ProcessMember[];
  /** SIGTERM, then SIGKILL after a grace period; resolves once none is left. */
  stop(members: readonly ProcessMember[]): Promise<void>;
}

/** A process named so that a later process with the same pid is never taken for it. */
export interface ProcessMember {
  pid: number;
  start: string;
}

/** The clock: milliseconds since the epoch. Tests pass a fake one. */
export type Clock = () => number;

/** The serial event queue as a part sees it: the state it folded so far, and a way to add an event. */
export interface SessionEvents {
  readonly state: SessionState;
  dispatch(input: SessionEventInput): void;
}

/** The agent conch talks to: undefined before it starts, while it restarts, and after it was stopped. */
export interface AgentSlot {
  readonly link?: AgentPort;
}

/** conch's own requests to the agent, each of which `cancel` and `shutdown` can give up. */
export interface AgentRequests {
  /** Runs one request so that it can be given up (`$/cancel_request`); `mark` is aborted too, so the caller can tell. */
  run<R>(call: (ctl: RequestControl) => Promise<R>, mark?: AbortController): Promise<R>;
  /** Gives up every request still waiting for the agent. */
  abandonAll(): void;
}

/** Decisions the agent waits for (permissions, questions): cancelled with the turn, dropped when the agent is gone. */
export interface PendingDecisions {
  cancelAll(): void;
  drop(): void;
}
