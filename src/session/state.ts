import type {
  AgentCapabilities,
  AuthMethod,
  AvailableCommand,
  CreateElicitationRequest,
  ContentBlock,
  PermissionOption,
  PlanEntry,
  RequestPermissionRequest,
  SessionConfigOption,
  SessionModeState,
  StopReason,
  Implementation,
} from "@agentclientprotocol/sdk";
import type { ErrorKind } from "../errors/conch-error.js";
import type { LocalHistory } from "./local-history.js";
import type { LocalToolFacts, ToolCallView } from "./tool-call-view.js";
import type { BackgroundTask, TerminalView } from "./running-work.js";
import type { ReplayMarks, TranscriptItem, TurnOrigin } from "./transcript-item.js";

// The session state's parts that have modules of their own; the other layers read them from here.
export { displayStatus, isFinalStatus, type LocalToolStatus, type ToolCallView, type ToolDisplayStatus } from "./tool-call-view.js";
export type { TranscriptItem, TurnOrigin } from "./transcript-item.js";
export type { BackgroundTask, TerminalView } from "./running-work.js";

/**
 * Where a turn is. `draining` means the prompt answered but work it started is still open;
 * `cancelling` means `session/cancel` went out and the prompt has not answered yet.
 */
export type Phase = "starting" | "auth" | "idle" | "prompting" | "draining" | "cancelling" | "replaying" | "failed";

/** The agent's model list, an unstable ACP field that claude and gemini send in `session/new`. */
export interface ModelState {
  currentModelId: string;
  availableModels: { modelId: string; name: string; description?: string | null }[];
}

/** What conch learned about the session when it was created, loaded or resumed. */
export interface SessionInfo {
  sessionId: string;
  cwd: string;
  agentName: string;
  agentInfo?: Implementation | null;
  agentCapabilities?: AgentCapabilities | null;
  modes?: SessionModeState | null;
  models?: ModelState | null;
  configOptions?: SessionConfigOption[] | null;
  /** How the session came to be: a fresh one, an agent replay, a resume without replay, a fork of another. */
  origin: "new" | "load" | "resume" | "fork";
}

/**
 * A file's content as events name it: its size and sha256 (the bytes live in the session's undo
 * store). `sha256` is absent for a file too big to read and keep.
 */
export interface FileVersion {
  bytes: number;
  sha256?: string;
}

/** How the agent runs a turn, as far as the foreground is concerned (ACP v2's `state_update`). */
export type AgentRunState = "running" | "idle" | "requires_action";

/** One turn: a prompt and what answered it, or a turn the agent started on its own. */
export interface Turn {
  id: string;
  origin: TurnOrigin;
  startedAt: number;
  endedAt?: number;
  stopReason?: StopReason;
  error?: string;
  usage?: PromptUsage;
}

/** Token counts of one prompt response (unstable `usage` field). */
export interface PromptUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  thoughtTokens?: number | null;
  cachedReadTokens?: number | null;
  cachedWriteTokens?: number | null;
}

/** One `session/request_permission` still waiting for an answer. */
export interface PendingPermission {
  key: string;
  toolCallId: string;
  options: PermissionOption[];
  request: RequestPermissionRequest;
  askedAt: number;
}

/** A question from the agent (`elicitation/create`) waiting for the person. */
export interface PendingQuestion {
  key: string;
  request: CreateElicitationRequest;
  askedAt: number;
}

/** A message the user sent while a turn was busy. */
export interface QueuedMessage {
  id: string;
  text: string;
  /** The prompt's content blocks when it has attachments; else the text is sent. */
  blocks?: ContentBlock[];
}

/** A write conch served for the agent (`fs/write_text_file`), as `/undo` needs it. */
export interface FileWrite {
  turnId: string;
  /** The prompt of that turn, for a person choosing what to undo. */
  label: string;
  path: string;
  before: FileVersion | null;
  after: FileVersion;
  /** Why the replaced content was not kept, when it was not. */
  lost?: string;
  /** The session whose undo store keeps the replaced content (a resume that opens a new session keeps the old one's). */
  sessionId?: string;
  at: number;
}

/** A recorded state of the workspace (a tree in conch's shadow repository), at a turn's start, after a call that may have changed files, or at its end. */
export interface CheckpointMark {
  turnId: string;
  stage: "open" | "start" | "call" | "end";
  tree: string;
  /** Paths the checkpoint could not hold (too large, a repository of their own). */
  skipped: string[];
  /** The prompt of that turn, for a person choosing what to undo. */
  label: string;
  at: number;
}

/** Context-window usage as the agent last reported it. */
export interface ContextUsage {
  used: number;
  size: number;
  cost?: { amount: number; currency: string } | null;
}

/** The whole session as the user sees it. */
export interface SessionState {
  info?: SessionInfo;
  /** What the agent said about itself in `initialize`: it chooses the agent's profile. */
  agent?: { info?: Implementation | null; capabilities?: AgentCapabilities | null; steering?: boolean };
  phase: Phase;
  /** The event sequence number last applied (1-based). */
  seq: number;
  items: TranscriptItem[];
  /**
   * Where each item sits in `items`, by id. Items are only ever appended, so an id's position never
   * changes: every state of one session shares this one map (a cache, added to, never rewritten),
   * which spares the reducer a copy of it per event. Look up through `itemPosition`.
   */
  itemIndex: Map<string, number>;
  toolCalls: Record<string, ToolCallView>;
  /**
   * The ids of the tool calls not final yet (see `isFinalStatus`): open work is found without a
   * scan of every call the session ever made, which a flood of calls made quadratic.
   */
  openToolIds: Set<string>;
  /**
   * The tool call that shows each terminal, by terminal id (the first call to name it). A cache like
   * `itemIndex`, shared by every state of a session and only added to.
   */
  toolByTerminal: Map<string, string>;
  turns: Turn[];
  /**
   * Every turn before this index in `turns` has ended: what ends the open turns starts here, not at
   * the session's first turn (a replay ends them at every prompt, which made it quadratic).
   */
  firstOpenTurn: number;
  /** Turns whose `session/prompt` is in flight, oldest first. */
  pendingPrompts: string[];
  /** The turn that receives text and new tool calls right now. */
  currentTurnId?: string;
  permissions: PendingPermission[];
  questions: PendingQuestion[];
  queue: QueuedMessage[];
  terminals: Record<string, TerminalView>;
  /** Terminal output/exit for terminals not announced yet, by id. */
  orphanTerminalMeta: Record<string, { output: string; exit?: { exitCode: number | null; signal: string | null } }>;
  plan?: PlanEntry[];
  commands: AvailableCommand[];
  modes?: SessionModeState | null;
  /** Set when the modes are a config option of category `mode` (opencode): switching sets that option. */
  modeConfigId?: string;
  models?: ModelState | null;
  configOptions: SessionConfigOption[];
  title?: string;
  usage?: ContextUsage;
  /** Total of prompt usage across turns. */
  tokens: PromptUsage;
  replaying: boolean;
  /** While a replay runs: which replayed turns conch's log saw interrupted, to mark them as they were live. */
  replayMarks?: ReplayMarks;
  /** An empty chunk arrived: claude-agent-acp opens each content block with one, so the next text is a new block. */
  blockBreak?: boolean;
  /** After a replay ended: updates with no prompt in flight are still history (gemini replays past its response). */
  replayTail?: boolean;
  /** While a replay runs: what conch's own log knew (`replay_started`), filled in as the replay shows each call. */
  replayLocal?: LocalHistory;
  /** conch's log knew these calls, which the replay had not shown by its response: facts waiting for the tail. */
  tailLocalTools?: Record<string, LocalToolFacts>;
  /** Why the session failed; `kind` is set when the failure says more than "it failed" (the agent never started). */
  /** `inTranscript`: a notice in the transcript already says it, with the stderr tail (the agent exited). */
  failure?: { message: string; stderrTail?: string; kind?: ErrorKind; inTranscript?: boolean };
  /** Set while the agent waits for a login: its auth methods. */
  auth?: { methods: AuthMethod[]; message: string };
  lastStopReason?: StopReason;
  /** Last time (event clock) anything arrived from the agent; for the quiet period. */
  lastAgentActivityAt: number;
  /** When the current drain began: the last prompt's response, or the agent starting work on its own. */
  drainStartedAt?: number;
  /** When background work (a call, a terminal, a task) last ended while no prompt was in flight. */
  backgroundEndedAt?: number;
  /** Background tasks by id. */
  background: Record<string, BackgroundTask>;
  /** The subagent sessions the agent started (ACP subagents draft), each with the call that shows it. */
  subagentSessions?: Record<string, string>;
  /** The agent closes its turns with markers (seen at least once in this session). */
  turnMarkers?: boolean;
  /** The agent's own foreground state, once it reports one (ACP v2 `state_update`). */
  agentState?: AgentRunState;
  /** How many background items the agent's last state update listed; undefined when it lists none. */
  agentBackground?: number;
  /** Every write conch served for the agent, in order (`/undo`). */
  writes?: FileWrite[];
  /** Per turn, the files `/undo` has put back (and `/redo` has not applied again). */
  undone?: Record<string, string[]>;
  /** Another terminal attached to write, and the last thing it did there. */
  remoteWriter?: { pid: number; did?: string; didAt?: number };
  /** When the agent's process went away unasked (its terminals and processes stop with it). */
  agentExitedAt?: number;
  /** conch began to stop the agent (`agent_stopping`): a call its turn leaves running from here ends with the agent. */
  agentStoppingAt?: number;
  /** Tasks the person asked conch to stop, by task id: when. */
  stopRequests?: Record<string, number>;
  /** The session's folder from conch's own log (when the agent did not reopen the session, `info` has none). */
  localCwd?: string;
  /** The workspace's checkpoints, in order (`/undo` of any writer's changes). */
  checkpoints?: CheckpointMark[];
  counter: number;
}

/** The state before anything happened. */
export function initialSessionState(): SessionState {
  return {
    phase: "starting",
    seq: 0,
    items: [],
    itemIndex: new Map(),
    toolCalls: {},
    openToolIds: new Set(),
    toolByTerminal: new Map(),
    turns: [],
    firstOpenTurn: 0,
    pendingPrompts: [],
    permissions: [],
    questions: [],
    queue: [],
    terminals: {},
    orphanTerminalMeta: {},
    commands: [],
    configOptions: [],
    tokens: {},
    background: {},
    replaying: false,
    lastAgentActivityAt: 0,
    counter: 0,
  };
}

/**
 * `state` as if `by` more events had been folded before the ones that made it: its event count
 * (`seq`) and each call's `lastSeq` moved on by `by`, nothing else changed.
 */
export function seqMovedOn(state: SessionState, by: number): SessionState {
  if (by === 0) return state;
  const toolCalls: Record<string, ToolCallView> = {};
  for (const [id, tool] of Object.entries(state.toolCalls)) toolCalls[id] = { ...tool, lastSeq: tool.lastSeq + by };
  return { ...state, seq: state.seq + by, toolCalls };
}

/** Position of an item in this state's `items`, or undefined when this state does not have it. */
export function itemPosition(state: SessionState, id: string): number | undefined {
  const idx = state.itemIndex.get(id);
  return idx !== undefined && idx < state.items.length && state.items[idx].id === id ? idx : undefined;
}
