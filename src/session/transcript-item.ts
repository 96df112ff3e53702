import type { ContentBlock, PlanEntry } from "@agentclientprotocol/sdk";

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
  /** A command the user ran in a conch pane (`!cmd`): theirs, not the agent's, and not sent unless attached. */
  | { kind: "shell"; id: string; terminalId: string; command: string; turnId?: string; history: boolean }
  /** `planId` for the identified plans of the unstable `plan_update`. */
  | { kind: "plan"; id: string; turnId: string; entries: PlanEntry[]; history: boolean; planId?: string }
  /** The person interrupted the turn (Esc): what came before it is all there is. */
  | { kind: "interrupted"; id: string; turnId: string; history: boolean }
  /** The agent answered the prompt with nothing at all (no text, thought or call): the prompt did not lose its answer. */
  | { kind: "no_reply"; id: string; turnId: string; history: boolean }
  /**
   * `failure`: it says why the session failed (the agent exited), which print mode reports once at the end.
   * `question`: it says what the agent asked the person or how it was answered, which a replay does not bring back.
   */
  | {
      kind: "notice";
      id: string;
      turnId?: string;
      level: "info" | "warning" | "error";
      text: string;
      failure?: boolean;
      question?: boolean;
    }
  | { kind: "unknown"; id: string; turnId?: string; updateKind: string; raw: unknown; history: boolean };

export type TurnOrigin = "user" | "agent" | "history";

/** A prompt's turn as an agent's replay finds it again: the prompt's text, and which of the prompts with that text it was. */
export interface PromptTurn {
  prompt: string;
  nth: number;
}

/** A prompt whose turn the person interrupted (Esc), as conch's log knew it. */
export type InterruptedPrompt = PromptTurn;

/**
 * A question notice ("asks", "answered") in a prompt's turn, where it was: after how many non-blank
 * characters of the agent's text, and after which of the turn's tool calls (the last one before it).
 */
export interface QuestionNotice {
  text: string;
  after: number;
  afterTool?: string;
}

/** The question notices conch's log showed in one prompt's turn, found again by prompt text and order. */
export interface PromptNotices extends PromptTurn {
  notices: QuestionNotice[];
}

/**
 * While an agent replays a session: the prompts conch's log saw interrupted and the question
 * notices it showed, how often each prompt text was replayed so far, and how many of the current
 * turn's notices are back in place.
 */
export interface ReplayMarks {
  interrupted: InterruptedPrompt[];
  notices?: PromptNotices[];
  seen: Record<string, number>;
  placed?: { turnId: string; count: number };
}
