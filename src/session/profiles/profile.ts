import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentRunState, BackgroundTask, TerminalView, ToolCallView } from "../state.js";
import type { TurnSignalSource } from "./turn-signals.js";

/** The agent families conch knows by their behaviour; everything else speaks plain ACP. */
export type ProfileId = "claude-agent-acp" | "claude-agent-acp-0.23" | "codex-acp" | "codex-acp-2" | "gemini-cli" | "opencode" | "generic";

/**
 * What an agent's traffic means for conch's turns, besides the protocol's own updates. A profile
 * turns the agent's own words (markers, task ids, state updates) into these; the fold applies them.
 */
export type TurnSignal =
  /** The next chunk starts a new message block (claude opens each block with an empty chunk). */
  | { signal: "block_break" }
  /** The agent says a turn ended: a prompt's turn, or one it ran on its own. */
  | { signal: "turn_marker"; origin: "prompt" | "agent" }
  /** A tool call started work that goes on after it completes (a background shell task). */
  | { signal: "background_started"; taskId: string; toolCallId?: string; label?: string }
  /** That work itself ended (the agent's report on it may still follow). */
  | { signal: "background_ended"; taskId: string }
  /** The agent's own foreground state; `background` counts the work it says still runs (undefined: not reported). */
  | { signal: "agent_state"; state: AgentRunState; background?: number }
  /** The agent's output says a command exited, though its call was never completed on the wire. */
  | { signal: "exit_seen"; toolCallId: string; exitCode: number }
  /** A `session/load` replay that goes on after its response is over. */
  | { signal: "replay_over" };

/** One item of normalized traffic: a protocol update to fold, or a turn signal. */
export type Normalized = { update: SessionUpdate } | TurnSignal;

/** What a profile may read while it normalizes: the session as folded so far. */
export interface NormalizeContext {
  tool(id: string): ToolCallView | undefined;
  background: Record<string, BackgroundTask>;
  /** A `session/load` replay is over but its tail may still come (gemini). */
  replayTail: boolean;
}

/** One part of what a tool call shows. */
export type ToolBlock =
  /** The agent's words about the call (a description, a reason, a summary): markdown. */
  | { type: "prose"; text: string }
  /** What the tool returned or printed: shown verbatim, never as markdown. */
  | { type: "output"; text: string }
  /** `excerpt`: the texts are only the lines that change, not the file: at which line is not known. */
  | { type: "diff"; path: string; oldText?: string | null; newText: string; excerpt?: boolean }
  /** A terminal's pane; `output` is what the agent reports it printed, for a pane whose screen got none. */
  | { type: "terminal"; terminalId: string; output?: string }
  /** A non-text content block (image, audio, resource), as a short marker. */
  | { type: "media"; text: string };

/** What one tool call shows, in conch's terms: the view never reads `rawInput` or `rawOutput`. */
export interface ToolDisplay {
  title: string;
  /** The command an execute call runs, in the agent's own terms. */
  command?: string;
  /** Where it runs, when the agent says. */
  cwd?: string;
  blocks: ToolBlock[];
}

/** What a display is derived from: a call as merged so far, and the session's terminals. */
export interface DisplayContext {
  terminals: Record<string, TerminalView>;
}

/** How an agent's turns end, best signal first (see docs/architecture.md, "How a turn ends"). */
export interface TurnPolicy {
  /**
   * The prompt response is the agent's word that the prompt's turn is over, apart from the open
   * work the fold tracks. When false (unknown agents), a quiet period after the response decides.
   */
  endsAtResponse: boolean;
  /**
   * Calls still running when their turn answers keep running in the agent's own session (codex's
   * unified exec): shown as such, not waited on, since the agent sends nothing more unless polled.
   */
  callsOutliveTurn: boolean;
  /**
   * Such a call goes on reporting: its output streams with no prompt pending, and its end comes
   * (codex-acp 2.x). It is shown live until then, not as a guess frozen in the scrollback.
   */
  outlivingCallsReport: boolean;
  /**
   * The agent closes every turn with a marker, and after a background task ends it runs a turn of
   * its own, closed the same way (claude-agent-acp 0.100). "observed": only once a marker was seen.
   */
  markers: "always" | "observed" | "never";
  /** A `session/load` replay can go on after its response (gemini), until `replay_over` or a short quiet. */
  replayOutlivesResponse: boolean;
}

/**
 * Everything conch knows about one agent family, in one place. Pure: it reads what the agent sent
 * and says what it means; the fold, the turn machine and the views use only what it returns.
 */
export interface AgentProfile {
  readonly id: ProfileId;
  /** The agent as named in sentences ("waiting for Claude's report …"). */
  readonly label: string;
  readonly turns: TurnPolicy;
  /** The turn signals this agent family is known to give, best first (every profile accepts them all). */
  readonly turnSignals: readonly TurnSignalSource[];
  /**
   * Modes that drop approvals or the sandbox (codex full access, gemini yolo): Shift+Tab never
   * lands on them; `/mode` switches to one only when named, and says what it means.
   */
  readonly permissiveModes: readonly string[];
  /** The agent reads a file before creating it and needs a missing file to read as empty (gemini). */
  readonly missingFileReadsAsEmpty: boolean;
  /** Rewrites one `session/update` into what conch folds: the update itself, fixed up, and turn signals. */
  normalize(update: SessionUpdate, ctx: NormalizeContext): Normalized[];
  /** What a tool call shows. */
  display(tool: ToolCallView, ctx: DisplayContext): ToolDisplay;
  /** Replayed user text that is the agent's internal context, not something the user typed. */
  isInternalUserText(text: string): boolean;
  /**
   * Internal user text as a person reads it: markup the agent keeps for its model translated (a
   * replayed slash command as `/model default`), or "" when nothing in it is for a person.
   */
  readInternal?(text: string): string;
  /**
   * The call that started the subagent this new call belongs to, from the agent's own marker
   * (claude `_meta.claudeCode.parentToolUseId`, codex `_meta.codex.subagent`); undefined for the
   * agent's own calls. `fields` is the message that announced the call.
   */
  subagentParent(fields: { _meta?: unknown; rawInput?: unknown }, tools: Record<string, ToolCallView>): string | undefined;
  /** A replayed call that only polls a running command (codex `write_stdin`): the command's call id. */
  pollParent(tool: ToolCallView, tools: Record<string, ToolCallView>): string | undefined;
  /** Whether what the agent reported for a call includes how the command ended. */
  hasExitStatus(tool: ToolCallView): boolean;
  /** A model id that pairs a model with a reasoning effort (codex-acp 2.x: `gpt-5.5[high]`), split. */
  splitModelId?(modelId: string): { model: string; effort: string } | undefined;
}
