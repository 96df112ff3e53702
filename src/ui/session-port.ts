import type { ContentBlock, CreateElicitationResponse } from "@agentclientprotocol/sdk";
import type { ConchError } from "../errors/conch-error.js";
import type { PermissionRule } from "../orchestrator/rules/permission-rules.js";
import type { TurnTiming } from "../orchestrator/turn-machine.js";
import type { UndoAnswer, UndoOutcome, UndoPlan } from "../orchestrator/undo/turn-undo.js";
import type { SessionState } from "../session/state.js";
import type { CommandStart, Task } from "../session/tasks.js";
import type { TerminalAccess } from "../terminals/terminal-access.js";

/**
 * What the UI needs of a session: its state, a way to hear about changes, and the user's intents.
 * The Orchestrator is one; tests pass a small fake with the same shape.
 */
export interface SessionPort {
  readonly state: SessionState;
  subscribe(fn: (state: SessionState) => void): () => void;
  send(text: string, blocks?: ContentBlock[]): void;
  sendNow(text: string, blocks?: ContentBlock[]): void;
  /** Sends a message into the running turn where the agent takes steering; else like `send`. */
  steer(text: string, blocks?: ContentBlock[]): void;
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
  /** Resolves with the agent's refusal, if it refused (it is shown as an error notice either way). */
  setMode(modeId: string): Promise<ConchError | void>;
  setModel(modelId: string): Promise<ConchError | void>;
  /** A select option's value id, or a boolean option's true/false. */
  setConfigOption(configId: string, value: string | boolean): Promise<ConchError | void>;
  /** `/clear`: closes this session at the agent and opens a new one in the same directory. */
  newConversation(): Promise<void>;
  /** `/fork`: a new session that starts from this one's history, where the agent can fork. */
  fork(): Promise<void>;
  /** `/logout`: the agent forgets the login; the session waits for a new one. */
  logout(): Promise<void>;
  restart(): Promise<void>;
  /** What `/undo [turn]` would put back (nothing changes yet): a plan to confirm, or words for the person. */
  planUndo(ref?: string): Promise<UndoAnswer>;
  /** What `/redo [turn]` would apply again after an undo. */
  planRedo?(ref?: string): Promise<UndoAnswer>;
  /** Puts a confirmed plan's files back; a string says why it could not. */
  applyUndo(plan: UndoPlan): Promise<UndoOutcome | string>;
  /** `/permissions`: the rules in force, deny first, with where each is written. */
  permissionRules?(): { rule: PermissionRule; where: string }[];
  /** Removes a remembered rule; a string says why it cannot. */
  removePermissionRule?(rule: PermissionRule): string | undefined;
  /** How long the turn machine waits out quiet periods and stalls, for the status line. */
  readonly timing?: TurnTiming;
  /** The session's terminals, once its agent started: screens to draw, client PTYs to type into. */
  readonly terminals?: TerminalAccess;
  /** Every task of the session now (the tasks view); read when the view asks. */
  listTasks?(): Promise<Task[]>;
  /** Stops a running task; resolves with a sentence for the person when it cannot. */
  stopTask?(taskId: string): Promise<string | undefined>;
  /** Runs the user's own command line (`!cmd`) in a pane: its terminal, or a sentence for the person when it cannot. */
  runCommand?(line: string): Promise<CommandStart>;
}

/** What a read-only view of a session needs (the transcript of `conch attach`): no intents. */
export type SessionSource = Pick<SessionPort, "state" | "subscribe" | "terminals">;
