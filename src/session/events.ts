import type {
  AgentCapabilities,
  AuthMethod,
  CreateElicitationRequest,
  CreateElicitationResponse,
  ContentBlock,
  Implementation,
  PromptResponse,
  RequestPermissionOutcome,
  RequestPermissionRequest,
  SessionNotification,
} from "@agentclientprotocol/sdk";

import type { LocalHistory } from "./local-history.js";
import type { ErrorKind } from "../errors/conch-error.js";
import type { FileVersion, SessionInfo } from "./state.js";

export type { FileVersion, ModelState, SessionInfo } from "./state.js";

/**
 * The kinds of work a turn can wait on: a tool call, a terminal, a person's decision, the agent's
 * report on a background task, a turn the agent runs on its own, the agent's own running state.
 */
export type OpenWorkKind = "tool" | "terminal" | "permission" | "report" | "agent_turn" | "agent_state";

/** Who answered a permission request: the person, a local policy, a permission rule, or the cancel sweep. */
export type PermissionAnswerSource = "user" | "policy" | "rule" | "cancel";

/** The rule that answered a permission request, as written, and where it is written (for the tool card). */
export interface AnsweringRule {
  verdict: "allow" | "ask" | "deny";
  text: string;
  from: string;
}

/** Every event that happens in a session. The session state is a pure fold of these. */
export type SessionEvent =
  /**
   * The agent answered `initialize`: who it is chooses how its traffic is read (its profile).
   * `steering`: it takes messages into a running turn (`_session/steering`, advertised in `_meta`).
   */
  | { type: "agent_ready"; at: number; info?: Implementation | null; capabilities?: AgentCapabilities | null; steering?: boolean }
  | { type: "session_started"; at: number; info: SessionInfo }
  /** A `session/update` as received. `history` marks updates replayed by `session/load`. */
  | { type: "update"; at: number; notification: SessionNotification; history?: boolean }
  /**
   * An extension notification that carries a turn signal (`_session/turn_ended`; see
   * `profiles/turn-signals.ts`, whose list decides which ones are logged).
   */
  | { type: "agent_signal"; at: number; method: string; params: unknown }
  | { type: "prompt_sent"; at: number; turnId: string; prompt: ContentBlock[]; queueId?: string }
  /**
   * The agent wrote `path` through conch (`fs/write_text_file`) during turn `turnId`: what the write
   * replaced (`before`; null when the file was new) and what it wrote. The replaced bytes are in the
   * session's undo store, unless `lost` says why not.
   */
  | { type: "file_written"; at: number; turnId: string; path: string; before: FileVersion | null; after: FileVersion; lost?: string }
  /** `/undo` put turn `turnId`'s files back: rewritten, deleted (files the turn created), and those it left, with why. */
  | { type: "edits_undone"; at: number; turnId: string; restored: string[]; deleted: string[]; skipped: { path: string; reason: string }[] }
  /**
   * conch recorded the workspace in its shadow repository (`tree`): at the session's opening, before
   * turn `turnId`'s prompt went out, after one of its calls that may have changed files, or at its end.
   */
  | { type: "checkpoint"; at: number; turnId: string; stage: "open" | "start" | "call" | "end"; tree: string; skipped?: string[] }
  /** `/redo` applied turn `turnId`'s changes again after an undo. */
  | { type: "edits_redone"; at: number; turnId: string; restored: string[]; deleted: string[]; skipped: { path: string; reason: string }[] }
  /** The user steered a message into the running turn `turnId`, and the agent took it (`_session/steering`). */
  | { type: "steered"; at: number; turnId: string; prompt: ContentBlock[] }
  | {
      type: "prompt_response";
      at: number;
      turnId: string;
      response?: PromptResponse;
      error?: string;
    }
  | { type: "permission_asked"; at: number; key: string; request: RequestPermissionRequest }
  | {
      type: "permission_answered";
      at: number;
      key: string;
      outcome: RequestPermissionOutcome;
      source: PermissionAnswerSource;
      /** The person answered from another terminal (`conch attach --write`). */
      via?: "attached";
      /** With `source: "rule"`: the rule(s) that decided. */
      rule?: AnsweringRule;
    }
  /** The agent withdrew its request with `$/cancel_request`. */
  | { type: "permission_withdrawn"; at: number; key: string }
  /** The agent asked the person something (`elicitation/create`). */
  | { type: "question_asked"; at: number; key: string; request: CreateElicitationRequest }
  | { type: "question_answered"; at: number; key: string; response: CreateElicitationResponse; source: PermissionAnswerSource | "agent" }
  | { type: "cancel_requested"; at: number }
  /** The user sent the next prompt while the previous turn was still draining. */
  | { type: "detached"; at: number }
  /**
   * The drain is over and the turn ends: nothing the turn opened is still waited on (what went
   * silent was given up as stalled), and the agent's own word (or, for an agent that gives none,
   * the quiet period) says its work is done. Emitted by the orchestrator when the turn machine
   * decides `settle`, at once or from its timer. Only this: not a request answered, not the UI's
   * settled (printed) items. The name is kept as the session log's format.
   */
  | { type: "settled"; at: number }
  /** A tool call showed no sign of life for the stall timeout (logs before `work_stalled`). */
  | { type: "tool_stalled"; at: number; toolCallId: string }
  /** Open work showed no sign of life for the stall timeout: conch stops waiting for it and says so. */
  | { type: "work_stalled"; at: number; kind: OpenWorkKind; id: string }
  /**
   * `local` carries what conch's own log knew, to fill what the replay lacks: each replayed call looks
   * as the log knew it from its first update (however the replay's updates arrive, its card may be
   * printed before the replay ends), and the prompts the log saw interrupted are marked as they were live.
   */
  | { type: "replay_started"; at: number; local?: LocalHistory }
  | { type: "replay_ended"; at: number; error?: string }
  /** `blocks` keeps attachments (resource links, images) for when the message is sent. */
  | { type: "queue_added"; at: number; id: string; text: string; blocks?: ContentBlock[] }
  | { type: "queue_edited"; at: number; id: string; text: string }
  | { type: "queue_removed"; at: number; id: string }
  /** A client-owned terminal started: for the agent's `terminal/create`, or the user's own `!cmd` (`by: "user"`). */
  | {
      type: "terminal_started";
      at: number;
      terminalId: string;
      command: string;
      args: string[];
      cwd: string;
      by?: "user";
      /** The PTY's size: its output makes sense at this width (attach and resume rebuild the screen at it). */
      cols?: number;
      rows?: number;
    }
  /**
   * conch read the process table for the command of a call its turn left running, since the agent
   * may never say when it ends (codex-acp 0.16 can drop an exec's end): still `running` (the pids
   * that run it), or gone from the agent's processes (it ended; how, the agent did not say).
   */
  | { type: "command_checked"; at: number; toolCallId: string; running: boolean; pids?: number[] }
  /**
   * Another terminal attached to write (`conch attach --write`, its conch's pid), did something
   * there (`did`, in words), or detached (`pid` null). Kept beside the transcript, not in it: a line
   * in the middle of a streaming answer would cut it in two.
   */
  | { type: "remote_writer"; at: number; pid: number | null; did?: string }
  /** The person asked conch to stop a task: a terminal, or processes of the agent's tree (`taskId` as `tasksOf` names it). */
  | { type: "task_stop_requested"; at: number; taskId: string }
  /** The PTY was resized (a pane of another width, a focused pane): later output is laid out for it. */
  | { type: "terminal_resized"; at: number; terminalId: string; cols: number; rows: number }
  | { type: "terminal_output"; at: number; terminalId: string; data: string }
  | {
      type: "terminal_exited";
      at: number;
      terminalId: string;
      exitCode: number | null;
      signal: string | null;
    }
  | { type: "notice"; at: number; level: "info" | "warning" | "error"; text: string }
  /**
   * conch began to stop the agent (quit, the end of a print run): what its turns left running in its
   * session ends with it from here. What the agent says of such a call afterwards is how it was
   * stopped (codex 2.x kills it at `session/close` and reports it `failed`), not how it ended.
   */
  | { type: "agent_stopping"; at: number }
  /** `reason` says how it ended when that is not a process exit (a remote agent's connection was lost). */
  | { type: "agent_exited"; at: number; code: number | null; signal: string | null; stderrTail: string; expected: boolean; reason?: string }
  /**
   * conch leaves the session to open another in its place (`/clear`: a new one, `/fork`: a copy);
   * `closed` when the agent was asked to close it (`session/close`). The next `session_started` is the new one.
   */
  | { type: "session_left"; at: number; sessionId: string; closed: boolean }
  /**
   * The session cannot go on: the agent did not start (`kind: "agent-start"`, with its stderr
   * tail), a session could not be opened, or conch refused an input. `/restart` starts again.
   */
  | { type: "failed"; at: number; message: string; kind?: ErrorKind; stderrTail?: string }
  /** The agent wants a login before it opens a session. */
  | { type: "auth_required"; at: number; methods: AuthMethod[]; message: string }
  /** The agent took `session/set_model` (unstable): the model list's current model is now `modelId`. */
  | { type: "model_set"; at: number; modelId: string }
  /** The agent was started again after a failure (the session id may change). */
  | { type: "restarted"; at: number };

/** An event type without its payload-independent fields, for callers that stamp time later. */
export type SessionEventInput = SessionEvent extends infer E ? (E extends { at: number } ? Omit<E, "at"> : never) : never;
