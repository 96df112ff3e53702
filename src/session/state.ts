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
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
  Implementation,
} from "@agentclientprotocol/sdk";
import type { FileVersion, ModelState, SessionInfo } from "./events.js";
import type { AgentRunState } from "./profiles/profile.js";
import type { ErrorKind } from "../errors/conch-error.js";

/**
 * Where a turn is. `draining` means the prompt answered but work it started is still open;
 * `cancelling` means `session/cancel` went out and the prompt has not answered yet.
 */
export type Phase = "starting" | "auth" | "idle" | "prompting" | "draining" | "cancelling" | "replaying" | "failed";

/** A tool call status as conch shows it: the protocol's, plus what conch concluded itself. */
export type ToolDisplayStatus = ToolCallStatus | LocalToolStatus | "background";

/** What conch concluded about a call the agent never closed. */
export type LocalToolStatus = "cancelled" | "rejected" | "stalled" | "unknown" | "interrupted";

/** One tool call, merged field by field from every message that mentioned it. */
export interface ToolCallView {
  toolCallId: string;
  turnId: string;
  title: string;
  kind?: ToolKind;
  /** The agent's last reported status. */
  status: ToolCallStatus;
  /**
   * What conch concluded when the agent never said: rejected, cancelled, stalled, unknown after a
   * resume, interrupted when the agent died while it ran.
   */
  localStatus?: LocalToolStatus;
  /**
   * Still running in the agent's own session after its turn answered (codex's unified exec): shown
   * as running in the background, not waited on. A later update for it goes on as usual.
   */
  detached?: boolean;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /** `_meta` merged shallowly across updates, minus the terminal byte streams. */
  meta: Record<string, unknown>;
  /** Display-only or client terminal shown for this call. */
  terminalId?: string;
  /** Permission decision for this call, if one was asked. */
  permission?: { optionName?: string; optionKind?: string; outcome: "selected" | "cancelled"; source: string };
  history: boolean;
  /** Seq and time of the last event that touched this call: stall detection and "sign of life". */
  lastSeq: number;
  lastAt?: number;
  startedAt: number;
  endedAt?: number;
  /** Replayed polls of this command (codex `write_stdin` calls) shown under it: their ids. */
  polls?: string[];
  /** Set on a poll: the command it belongs to. It has no transcript item of its own. */
  pollOf?: string;
}

/** What the user sees of the conversation, in order. */
export type TranscriptItem =
  | { kind: "turn"; id: string; turnId: string; origin: TurnOrigin; history: boolean }
  | {
      kind: "user";
      id: string;
      turnId: string;
      text: string;
      blocks: ContentBlock[];
      history: boolean;
      messageId?: string | null;
      /** Agent-internal context replayed as a user message (`<session_context>`, `[Function Response: …]`). */
      internal?: boolean;
      /** Set when the prompt came from the queue. */
      queueId?: string;
      /** Sent into the running turn (steered) rather than as a prompt of its own. */
      steered?: boolean;
    }
  | { kind: "agent"; id: string; turnId: string; text: string; history: boolean; messageId?: string | null }
  | { kind: "thought"; id: string; turnId: string; text: string; history: boolean; messageId?: string | null }
  | { kind: "tool"; id: string; turnId: string; toolCallId: string; history: boolean }
  /** `planId` for the identified plans of the unstable `plan_update`. */
  | { kind: "plan"; id: string; turnId: string; entries: PlanEntry[]; history: boolean; planId?: string }
  | { kind: "notice"; id: string; turnId?: string; level: "info" | "warning" | "error"; text: string }
  | { kind: "unknown"; id: string; turnId?: string; updateKind: string; raw: unknown; history: boolean };

export type TurnOrigin = "user" | "agent" | "history";

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

/** A terminal known to the session, display-only (agent) or client-owned (PTY). */
export interface TerminalView {
  terminalId: string;
  source: "display" | "client";
  toolCallId?: string;
  command?: string;
  cwd?: string;
  exited: boolean;
  exitCode?: number | null;
  signal?: string | null;
  /** The last bytes written, bounded; the screen itself lives in terminals/. */
  outputTail: string;
  outputBytes: number;
  history: boolean;
  /** Last sign of life (event clock): output, or when it opened. */
  lastAt?: number;
  /** When it opened (event clock). */
  startedAt?: number;
}

/**
 * Work the agent runs after the tool call that started it has completed (a background shell task),
 * and whose end it reports in a turn of its own (claude-agent-acp 0.100).
 */
export interface BackgroundTask {
  taskId: string;
  toolCallId?: string;
  /** The command or task name, for "waiting for Claude's report on …". */
  label: string;
  startedAt: number;
  /** The work itself ended. */
  endedAt?: number;
  /** The agent's own turn about it ended. */
  reportedAt?: number;
  /** conch stopped waiting for the report: it stalled, the turn was cancelled, or the agent is gone. */
  abandonedAt?: number;
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
  /** An empty chunk arrived: claude-agent-acp opens each content block with one, so the next text is a new block. */
  blockBreak?: boolean;
  /** After a replay ended: updates with no prompt in flight are still history (gemini replays past its response). */
  replayTail?: boolean;
  /** Why the session failed; `kind` is set when the failure says more than "it failed" (the agent never started). */
  failure?: { message: string; stderrTail?: string; kind?: ErrorKind };
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
  /** The agent closes its turns with markers (seen at least once in this session). */
  turnMarkers?: boolean;
  /** The agent's own foreground state, once it reports one (ACP v2 `state_update`). */
  agentState?: AgentRunState;
  /** How many background items the agent's last state update listed; undefined when it lists none. */
  agentBackground?: number;
  /** Every write conch served for the agent, in order (`/undo`). */
  writes?: FileWrite[];
  /** Per turn, the files `/undo` has put back. */
  undone?: Record<string, string[]>;
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

/** Position of an item in this state's `items`, or undefined when this state does not have it. */
export function itemPosition(state: SessionState, id: string): number | undefined {
  const idx = state.itemIndex.get(id);
  return idx !== undefined && idx < state.items.length && state.items[idx].id === id ? idx : undefined;
}

/** Statuses after which a tool call will not change on its own. */
export function isFinalStatus(tool: ToolCallView): boolean {
  return tool.status === "completed" || tool.status === "failed" || tool.localStatus !== undefined;
}

/** The status to show: a local conclusion wins over a stale agent status. */
export function displayStatus(tool: ToolCallView): ToolDisplayStatus {
  // "completed" with no exit status after a resume is the agent's guess; what conch's own log knew wins.
  if (tool.localStatus === "unknown" || tool.localStatus === "interrupted") return tool.localStatus;
  if (tool.status === "completed" || tool.status === "failed") return tool.status;
  if (tool.localStatus) return tool.localStatus;
  return tool.detached ? "background" : tool.status;
}
