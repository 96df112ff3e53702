import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { SessionEvent } from "./events.js";
import type { AgentProfile, NormalizeContext } from "./profiles/profile.js";

/** What `joinChunks` needs to know of the session the events belong to. */
export interface ChunkJoinContext {
  /** The session's own id: a subagent's chunks (another session id) fold their own way, and are kept apart. */
  sessionId: string | undefined;
  /** The agent's profile, which reads every update before the fold. */
  profile: AgentProfile;
  normalize: NormalizeContext;
}

type ChunkEvent = Extract<SessionEvent, { type: "update" }>;

/** The fields of a chunk update this join knows how to fold; one more (`_meta`, annotations) and it is left alone. */
const CHUNK_KEYS = new Set(["sessionUpdate", "content", "messageId"]);

/**
 * A message or thought chunk of plain text, live, of the session itself, whose profile passes it on
 * as it is: the fold appends it to the text of the message before it and does nothing else.
 */
function plainChunk(ev: SessionEvent, ctx: ChunkJoinContext): ChunkEvent | undefined {
  if (ev.type !== "update" || ev.history !== undefined) return undefined;
  const n = ev.notification as { sessionId?: unknown; update?: unknown; _meta?: unknown };
  if (n._meta !== undefined || n.sessionId !== ctx.sessionId || ctx.sessionId === undefined) return undefined;
  const u = n.update as { sessionUpdate?: unknown; content?: unknown; messageId?: unknown };
  if (u.sessionUpdate !== "agent_message_chunk" && u.sessionUpdate !== "agent_thought_chunk") return undefined;
  for (const key in u) if (!CHUNK_KEYS.has(key)) return undefined;
  if (u.messageId !== undefined && u.messageId !== null && typeof u.messageId !== "string") return undefined;
  const c = u.content as { type?: unknown; text?: unknown } | undefined;
  if (!c || c.type !== "text" || typeof c.text !== "string" || c.text === "") return undefined;
  for (const key in c) if (key !== "type" && key !== "text") return undefined;
  return passedAsIs(u as SessionUpdate, ctx) ? ev : undefined;
}

function passedAsIs(update: SessionUpdate, ctx: ChunkJoinContext): boolean {
  const out = ctx.profile.normalize(update, ctx.normalize);
  return out.length === 1 && "update" in out[0] && out[0].update === update;
}

function textOf(ev: ChunkEvent): string {
  return (ev.notification.update as { content: { text: string } }).content.text;
}

/** Whether `b` goes to the same message as `a`, by the same fields. */
function sameMessage(a: ChunkEvent, b: ChunkEvent): boolean {
  const ua = a.notification.update as { sessionUpdate: string; messageId?: string | null };
  const ub = b.notification.update as { sessionUpdate: string; messageId?: string | null };
  return ua.sessionUpdate === ub.sessionUpdate && ua.messageId === ub.messageId && "messageId" in ua === "messageId" in ub;
}

/**
 * The events to record for a batch, with each run of text chunks to one message written as two
 * records instead of one per chunk: the run's first chunk as it came, then the rest as one chunk
 * of their joined text, stamped with the last one's time.
 *
 * Folding the records gives the state folding the events gives (but for `seq`, which counts events).
 * The first chunk has text besides white space, so the fold puts it in a message, new or not, and
 * leaves that message last; each later chunk of the run then only appends its text to it, and so
 * does their join. The first stays alone because it may open a message or a turn at its own time. A
 * run holds only chunks the profile passes on unchanged, and the join is kept only if the profile
 * passes it on unchanged too (gemini reads a whole chunk as a mode change).
 */
export function joinChunks(events: readonly SessionEvent[], ctx: ChunkJoinContext): SessionEvent[] {
  const out: SessionEvent[] = [];
  let i = 0;
  while (i < events.length) {
    const head = plainChunk(events[i], ctx);
    out.push(events[i++]);
    if (!head || textOf(head).trim() === "") continue;
    let end = i;
    while (end < events.length) {
      const next = plainChunk(events[end], ctx);
      if (!next || !sameMessage(head, next)) break;
      end++;
    }
    if (end - i < 2) continue;
    const run = events.slice(i, end) as ChunkEvent[];
    const joined = joinRun(run, ctx);
    if (joined) out.push(joined);
    else out.push(...run);
    i = end;
  }
  return out;
}

function joinRun(run: ChunkEvent[], ctx: ChunkJoinContext): ChunkEvent | undefined {
  const last = run[run.length - 1];
  const u = last.notification.update as { sessionUpdate: string; messageId?: string | null };
  const update = {
    sessionUpdate: u.sessionUpdate,
    content: { type: "text", text: run.map(textOf).join("") },
    ...("messageId" in u ? { messageId: u.messageId } : {}),
  } as SessionUpdate;
  if (!passedAsIs(update, ctx)) return undefined;
  return { type: "update", at: last.at, notification: { sessionId: last.notification.sessionId, update } };
}
