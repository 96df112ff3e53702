import type { ContentBlock, CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { TurnTiming } from "../orchestrator/turn-machine.js";
import type { SessionState } from "../session/state.js";
import type { Terminal } from "../terminals/terminal.js";

/**
 * What the UI needs of a session: its state, a way to hear about changes, and the user's intents.
 * The Orchestrator is one; tests pass a small fake with the same shape.
 */
export interface SessionPort {
  readonly state: SessionState;
  subscribe(fn: (state: SessionState) => void): () => void;
  send(text: string, blocks?: ContentBlock[]): void;
  sendNow(text: string, blocks?: ContentBlock[]): void;
  /** Stops waiting for a draining turn: the queued messages go out now, in order. */
  detach(): void;
  cancel(): void;
  answerPermission(key: string, optionId: string | null): void;
  /** Answers a question from the agent (`elicitation/create`). */
  answerQuestion(key: string, response: CreateElicitationResponse): void;
  /** Logs in with one of the agent's auth methods, then opens the session. */
  authenticate(methodId: string): Promise<void>;
  editQueued(id: string, text: string): void;
  removeQueued(id: string): void;
  setMode(modeId: string): Promise<void>;
  setModel(modelId: string): Promise<void>;
  setConfigOption(configId: string, value: string): Promise<void>;
  restart(): Promise<void>;
  /** How long the turn machine waits out quiet periods and stalls, for the status line. */
  readonly timing?: TurnTiming;
  /** The session's terminals; typed loosely because only the registry-backed service can show and type into them. */
  readonly terminals?: object;
}

/** What a read-only view of a session needs (the transcript of `conch attach`): no intents. */
export type SessionSource = Pick<SessionPort, "state" | "subscribe" | "terminals">;

/** The part of a terminal service the UI uses: screens to show, and typing into client PTYs. */
export interface TerminalAccess {
  get(id: string): Terminal | undefined;
  write(id: string, data: string): void;
  /** Screen changes, to redraw a pane when output was parsed after the last state change. */
  onScreenChange(fn: () => void): () => void;
}

interface RegistryLike {
  registry: { get(id: string): Terminal | undefined; subscribe(fn: (change: { type: string }) => void): () => void };
  write(id: string, data: string): void;
}

function isRegistryLike(value: unknown): value is RegistryLike {
  const v = value as Partial<RegistryLike> | undefined;
  return !!v && typeof v.write === "function" && !!v.registry && typeof v.registry.get === "function";
}

/** The session's terminals as the UI sees them, when its terminal service keeps screens (the real one does). */
export function terminalAccess(port: Pick<SessionPort, "terminals">): TerminalAccess | undefined {
  const service = port.terminals;
  if (!isRegistryLike(service)) return undefined;
  return {
    get: (id) => service.registry.get(id),
    write: (id, data) => service.write(id, data),
    onScreenChange: (fn) => service.registry.subscribe((change) => change.type !== "added" && fn()),
  };
}
