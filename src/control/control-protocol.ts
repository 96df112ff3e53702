import type { ContentBlock, CreateElicitationResponse } from "@agentclientprotocol/sdk";
import { z } from "zod";
import type { Task } from "../session/tasks.js";

/*
 * The control socket's protocol: one JSON object per line each way. The attached terminal says
 * hello (the token, the session it means), then sends the same intents the TUI sends; conch answers
 * each with `done`. What became of an intent the attached view reads from the session's log, like
 * everything else it shows: the socket carries intents, never state.
 */

/** The protocol's version: a client and a server that disagree say so rather than guess. */
export const CONTROL_VERSION = 1;
/** A line longer than this ends the connection: no intent is that big (a message with its attachments included). */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

/** What the attached terminal asks conch to do: the TUI's intents, by name. */
export type Intent =
  | { kind: "answer_permission"; key: string; optionId: string | null }
  | { kind: "answer_question"; key: string; response: CreateElicitationResponse }
  | { kind: "send"; text: string; blocks?: ContentBlock[] }
  | { kind: "send_now"; text: string; blocks?: ContentBlock[] }
  | { kind: "steer"; text: string; blocks?: ContentBlock[] }
  | { kind: "detach" }
  | { kind: "cancel" }
  | { kind: "edit_queued"; id: string; text: string }
  | { kind: "remove_queued"; id: string }
  | { kind: "run_command"; line: string }
  | { kind: "stop_task"; taskId: string }
  | { kind: "list_tasks" }
  | { kind: "type"; terminalId: string; data: string };

export type ClientMessage =
  { t: "hello"; v: number; token: string; sessionId: string; pid: number } | { t: "intent"; id: number; intent: Intent };

export type ServerMessage =
  | { t: "welcome"; v: number; pid: number }
  | { t: "refused"; reason: string }
  /** An intent was carried out (or, with `error`, why not); `tasks` answers `list_tasks`. */
  | { t: "done"; id: number; error?: string; tasks?: Task[]; terminalId?: string };

const text = z.string().max(MAX_LINE_BYTES);
// Content blocks are passed on to the agent as the TUI would: their shape is the SDK's, checked there.
const blocks = z.array(z.object({ type: z.string() }).passthrough()).optional();

const intentSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("answer_permission"), key: z.string(), optionId: z.string().nullable() }),
  z.object({ kind: z.literal("answer_question"), key: z.string(), response: z.object({ action: z.string() }).passthrough() }),
  z.object({ kind: z.literal("send"), text, blocks }),
  z.object({ kind: z.literal("send_now"), text, blocks }),
  z.object({ kind: z.literal("steer"), text, blocks }),
  z.object({ kind: z.literal("detach") }),
  z.object({ kind: z.literal("cancel") }),
  z.object({ kind: z.literal("edit_queued"), id: z.string(), text }),
  z.object({ kind: z.literal("remove_queued"), id: z.string() }),
  z.object({ kind: z.literal("run_command"), line: text }),
  z.object({ kind: z.literal("stop_task"), taskId: z.string() }),
  z.object({ kind: z.literal("list_tasks") }),
  z.object({ kind: z.literal("type"), terminalId: z.string(), data: text }),
]);

const clientSchema = z.discriminatedUnion("t", [
  z.object({ t: z.literal("hello"), v: z.number(), token: z.string(), sessionId: z.string(), pid: z.number() }),
  z.object({ t: z.literal("intent"), id: z.number(), intent: intentSchema }),
]);

/** Reads one line from the attached terminal; undefined when it is not a message of the protocol. */
export function parseClientMessage(line: string): ClientMessage | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = clientSchema.safeParse(raw);
  return parsed.success ? (parsed.data as ClientMessage) : undefined;
}

/** One message as a line. */
export function encodeMessage(msg: ClientMessage | ServerMessage): string {
  return `${JSON.stringify(msg)}\n`;
}

/**
 * Splits a stream into lines: whole lines only; a partial line at the end waits for the rest, and
 * is dropped with the connection (an intent cut off by a killed peer is never half-applied).
 */
export class LineReader {
  private partial = "";
  /** Set once a line grew past the limit. */
  overflow = false;

  /** The complete lines in `chunk` (with what came before it). */
  push(chunk: string): string[] {
    const all = this.partial + chunk;
    const lines = all.split("\n");
    this.partial = lines.pop() ?? "";
    if (Buffer.byteLength(this.partial) > MAX_LINE_BYTES) this.overflow = true;
    return lines.filter((l) => l.trim() !== "");
  }
}
