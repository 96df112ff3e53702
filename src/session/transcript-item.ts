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
  /** `failure`: it says why the session failed (the agent exited), which print mode reports once at the end. */
  | { kind: "notice"; id: string; turnId?: string; level: "info" | "warning" | "error"; text: string; failure?: boolean }
  | { kind: "unknown"; id: string; turnId?: string; updateKind: string; raw: unknown; history: boolean };

export type TurnOrigin = "user" | "agent" | "history";

/** A prompt whose turn the person interrupted (Esc), as conch's log knew it: its text, and which of the prompts with that text it was. */
export interface InterruptedPrompt {
  prompt: string;
  nth: number;
}

/** While an agent replays a session: the prompts conch's log saw interrupted, and how often each prompt text was replayed so far. */
export interface ReplayMarks {
  interrupted: InterruptedPrompt[];
  seen: Record<string, number>;
}
