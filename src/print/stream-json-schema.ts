// The public line schema of `--output-format stream-json`, version `v`: what the README's table documents.
import type { PermissionAnswerSource } from "../session/events.js";
import type { ToolDisplayStatus } from "../session/state.js";
import type { PrintResult } from "./print-result.js";

/**
 * The version of `--output-format stream-json`'s line schema, on every line as `v`. Adding a line
 * type or a field keeps it; removing or changing the meaning of one raises it.
 */
export const STREAM_JSON_VERSION = 1;

/** What a tool call or a permission request shows, in the public shape: text, a diff, a terminal. */
export type StreamContent =
  | { type: "text"; text: string }
  | { type: "diff"; path: string; oldText: string | null; newText: string }
  /** Once the command exited: what it printed (the last `OUTPUT_TAIL_BYTES` (session/apply-terminal.ts) characters, as plain text), and whether earlier output is left out. */
  | { type: "terminal"; terminalId: string; output?: string; truncated?: boolean };

/** Every line stream-json writes, by `type`. The README's table documents each field. */
export type StreamJsonLine = { v: typeof STREAM_JSON_VERSION } & (
  | {
      type: "system";
      subtype: "init";
      sessionId: string;
      agent: string;
      agentVersion: string | null;
      cwd: string;
      origin: "new" | "load" | "resume" | "fork";
    }
  | { type: "prompt"; turnId: string; text: string }
  | { type: "text"; delta: string }
  | { type: "thought"; delta: string }
  | {
      type: "tool_call";
      subtype: "start" | "update";
      id: string;
      title: string;
      kind: string | null;
      status: ToolDisplayStatus;
      content?: StreamContent[];
    }
  | { type: "plan"; entries: { content: string; status: string; priority: string }[] }
  | {
      type: "permission";
      subtype: "asked";
      id: string;
      toolCallId: string;
      title: string;
      options: { id: string; name: string; kind: string }[];
      content: StreamContent[];
    }
  | {
      type: "permission";
      subtype: "answered";
      id: string;
      toolCallId: string | null;
      outcome: "selected" | "cancelled";
      optionId: string | null;
      optionKind: string | null;
      source: PermissionAnswerSource | "agent";
    }
  | { type: "usage"; used: number; size: number; cost: { amount: number; currency: string } | null }
  | { type: "notice"; level: "info" | "warning" | "error"; text: string }
  | ({ type: "result" } & Omit<PrintResult, "type">)
);
