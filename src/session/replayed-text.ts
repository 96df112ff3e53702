import type { SessionEvent } from "./events.js";

/**
 * A chunk of the agent's message or thought, as conch's recorder writes it, told from the line's
 * start without parsing it (the id is the notification's session). A line written any other way
 * does not match, and is parsed like any other.
 */
const TEXT_CHUNK =
  /^\{"type":"update","at":\d+,"notification":\{"sessionId":"([^"\\]*)","update":\{"sessionUpdate":"agent_(?:message|thought)_chunk"[,}]/;

/** Events after which the fold may have no prompt in flight, besides a prompt's own response. */
const ENDS_PROMPTS: ReadonlySet<SessionEvent["type"]> = new Set([
  "agent_ready",
  "session_started",
  "agent_exited",
  "session_left",
  "restarted",
  "failed",
  "auth_required",
]);

/** Updates folded against the transcript's last item, which a chunk left out would have been. */
const NEXT_TO_TEXT: ReadonlySet<string> = new Set(["user_message_chunk", "compaction_summary_chunk"]);

/** Events whose place in their turn is told by how much of the agent's text came before them (`questionNoticesOf`). */
const AFTER_TEXT: ReadonlySet<SessionEvent["type"]> = new Set(["question_asked", "question_answered"]);

/** Events that name a turn the fold looks up by its id, which a chunk left out would have moved. */
const NAMES_TURN: ReadonlySet<SessionEvent["type"]> = new Set(["file_written", "checkpoint"]);

/**
 * Which lines of conch's own log a `session/load` resume leaves unread: the agent's message and
 * thought chunks of the session itself while one of its prompts is in flight (on a long session,
 * five lines of six). The agent's replay brings that text; the load path folds the log only for
 * what the replay lacks (`localHistoryOf`: calls, terminals, writes, checkpoints, interrupted
 * prompts), and inside a prompt such a chunk only adds text to the transcript's items.
 *
 * Read as before: a chunk with no prompt in flight (it opens the agent's own turn), a subagent's
 * (another session id: it goes to its call), every other update. Where a chunk left out could
 * still change what the load path gets, the reading is not `exact` and the caller reads the log
 * whole: a user or summary chunk folded next to where the left-out text was, and a write or
 * checkpoint of a turn other than a prompt's (the agent's own turns are named by a count of the
 * transcript's items, which the left-out chunks are part of), and a question asked or answered
 * after text left out in the prompts now in flight (its notice is placed by that text).
 */
export class ReplayedTextSkip {
  /** How many lines were left out. */
  skipped = 0;
  /** How many of them since no prompt was in flight. */
  private skippedInFlight = 0;
  /** False once a line was read whose fold a chunk left out may have changed. */
  exact = true;
  private session?: string;
  private readonly inFlight = new Set<string>();
  private readonly prompts = new Set<string>();

  /** `on`: whether the agent replays the session, asked at each line (it is known once the agent is up). */
  constructor(private readonly on: () => boolean) {}

  /** Whether `line` can be left unread. */
  skips(line: string): boolean {
    if (this.inFlight.size === 0 || !this.exact || !this.on()) return false;
    const chunk = TEXT_CHUNK.exec(line);
    if (!chunk || chunk[1] !== this.session) return false;
    this.skipped++;
    this.skippedInFlight++;
    return true;
  }

  /** Each event read, in order. */
  read(ev: SessionEvent): void {
    if (ev.type === "prompt_sent") {
      this.inFlight.add(ev.turnId);
      this.prompts.add(ev.turnId);
    } else if (ev.type === "prompt_response") this.inFlight.delete(ev.turnId);
    else if (ENDS_PROMPTS.has(ev.type)) this.inFlight.clear();
    if (this.inFlight.size === 0) this.skippedInFlight = 0;
    if (ev.type === "session_started") this.session = ev.info.sessionId;
    if (this.skipped === 0) return;
    if (AFTER_TEXT.has(ev.type) && this.skippedInFlight > 0) this.exact = false;
    if (NAMES_TURN.has(ev.type) && "turnId" in ev && ev.turnId !== "" && !this.prompts.has(ev.turnId)) this.exact = false;
    if (ev.type === "update" && ev.notification.sessionId === this.session) {
      const kind = (ev.notification.update as { sessionUpdate?: unknown }).sessionUpdate;
      if (typeof kind === "string" && NEXT_TO_TEXT.has(kind)) this.exact = false;
    }
  }
}
