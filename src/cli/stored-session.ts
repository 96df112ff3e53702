import type { SessionEvent } from "../session/events.js";
import { closeInterruptedRuns } from "../session/interrupted-runs.js";
import { foldEvents } from "../session/reduce.js";
import type { SessionState } from "../session/state.js";
import type { SessionRecord } from "../store/session-index.js";
import { sessionWriterPid } from "../store/session-lock.js";
import { readSessionLog } from "../store/session-log.js";
import { resolveStateDir, sessionLogPath } from "../store/state-dir.js";

/** A stored session folded from its log, read only: no lock is taken, nothing is written. */
export interface StoredSession {
  state: SessionState;
  /** The conch process that has it open now (and still writes its log), if one does. */
  writerPid?: number;
}

/**
 * Reads a stored session's log and folds it. A session no conch has open gets what its last
 * process left waiting closed (as `--resume` shows it); a live one is shown as it stands.
 */
export function readStoredSession(rec: SessionRecord, root: string = resolveStateDir()): StoredSession {
  const writerPid = sessionWriterPid(rec.id, root);
  const log = readSessionLog<SessionEvent>(sessionLogPath(rec.id, root));
  const events = writerPid === undefined ? closeInterruptedRuns(log.events) : log.events;
  return { state: foldEvents(events), writerPid };
}
