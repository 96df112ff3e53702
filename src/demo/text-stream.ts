import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { sleep } from "./abortable-sleep.js";

/** The chunk kinds that carry streamed text. */
export type TextChunkKind = "agent_message_chunk" | "agent_thought_chunk";

/**
 * Splits text the way a model streams it: a few characters up to a word per
 * piece, whitespace kept with the word before it. Joining the pieces gives the
 * text back exactly.
 */
export function splitIntoChunks(text: string): string[] {
  return text.match(/\S{1,8}\s*|\s+/g) ?? [];
}

export interface StreamTextOptions {
  /** Pause between chunks. */
  delayMs: number;
  /** Stops the stream between chunks. */
  signal?: AbortSignal;
  /** Ties the chunks of one message together, so history can merge them back. */
  messageId?: string;
}

/** Sends `text` as many small chunks of one kind; returns how many characters went out before any cancel. */
export async function streamText(
  send: (update: SessionUpdate) => Promise<void>,
  kind: TextChunkKind,
  text: string,
  options: StreamTextOptions,
): Promise<number> {
  let sent = 0;
  for (const piece of splitIntoChunks(text)) {
    if (options.signal?.aborted) break;
    await send({
      sessionUpdate: kind,
      content: { type: "text", text: piece },
      ...(options.messageId ? { messageId: options.messageId } : {}),
    });
    sent += piece.length;
    await sleep(options.delayMs, options.signal);
  }
  return sent;
}
