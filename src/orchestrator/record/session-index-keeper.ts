import type { SessionState } from "../../session/state.js";
import { findSession, upsertSession, type SessionRecord, type SessionRecordUpdate } from "../../store/session-index.js";
import { describeError } from "./log-writer.js";

/**
 * Keeps a session's entry in the session index current, one update after another. A failure is
 * reported once: the index is a cache, and `conch sessions` rebuilds it from the logs.
 */
export class SessionIndexKeeper {
  private indexing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly root: string | undefined,
    private readonly failed: (text: string) => void,
  ) {}

  /** The entry of a session whose log just opened; one being resumed keeps its `createdAt`. */
  add(rec: SessionRecord): void {
    const root = this.root;
    this.enqueue(async () => {
      const found = await findSession(rec.id, root).catch(() => undefined);
      if (found && "match" in found) {
        const { createdAt: _created, ...rest } = rec;
        return upsertSession(rest, root);
      }
      return upsertSession(rec, root);
    });
  }

  /** What changed in a session's entry. */
  update(rec: SessionRecordUpdate): void {
    this.enqueue(() => upsertSession(rec, this.root));
  }

  /** Resolves once every update asked for so far is written, or failed. */
  idle(): Promise<unknown> {
    return this.indexing;
  }

  private enqueue(update: () => Promise<unknown>): void {
    this.indexing = this.indexing.then(update).catch((err: unknown) => {
      this.failed(`the session index could not be updated (${describeError(err)}); \`conch sessions\` rebuilds it from the session logs`);
    });
  }
}

/**
 * What the index says of the session now: its title (the agent's, else its first prompt), its last
 * stop reason and how many messages it has, counting from `itemsFrom` (where this session's items
 * start after `/clear` or `/fork`). Undefined when the state is another session's.
 */
export function indexUpdateOf(
  s: SessionState | undefined,
  sessionId: string | undefined,
  itemsFrom: number,
): SessionRecordUpdate | undefined {
  if (!s?.info || s.info.sessionId !== sessionId) return undefined;
  const items = itemsFrom ? s.items.slice(itemsFrom) : s.items;
  const firstPrompt = items.find((i) => i.kind === "user" && !i.internal);
  const title = s.title ?? (firstPrompt && "text" in firstPrompt ? firstPrompt.text.split("\n")[0].slice(0, 80) : undefined);
  return {
    id: s.info.sessionId,
    title,
    updatedAt: new Date().toISOString(),
    lastStopReason: s.lastStopReason,
    messageCount: items.filter((i) => i.kind === "user" || i.kind === "agent").length,
  };
}
