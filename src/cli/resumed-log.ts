import type { ResumedLog } from "../orchestrator/orchestrator-options.js";
import type { SessionEvent } from "../session/events.js";
import { InterruptedRunsFold } from "../session/interrupted-runs.js";
import { ReplayedTextSkip } from "../session/replayed-text.js";
import { looksLikeEvent, readSessionLogInSteps, type LineFilter } from "../store/session-log.js";

/**
 * How much of a resumed log is read and folded in one go before keys get a turn: a step of 256 KB
 * took 20-70 ms on a loaded 2-core machine, one of 64 KB 1-15 ms.
 */
const HISTORY_CHUNK_BYTES = 64 * 1024;

/**
 * Reads and folds the log of a session being resumed, a chunk at a time with a turn of the event
 * loop between (keys typed meanwhile are not held up). Once `replayed()` says the agent replays
 * the session, the text its replay brings is left unread (`ReplayedTextSkip`: ~0.2 s of a
 * 2,000-turn log): the log then comes with `whole`, which reads it all again for a caller that
 * shows conch's own transcript after all (a load that failed, then an agent that cannot load).
 */
export async function readResumedLog(file: string, replayed?: () => boolean): Promise<ResumedLog> {
  if (replayed) {
    const skip = new ReplayedTextSkip(replayed);
    const log = await readFolded(file, skip);
    if (log && skip.skipped) return { ...log, whole: () => readResumedLog(file) };
    if (log) return log;
  }
  return (await readFolded(file))!;
}

/** The log read and folded, through `filter` when given; undefined as soon as the filter is not exact. */
async function readFolded(file: string, filter?: LineFilter<SessionEvent> & { exact: boolean }): Promise<ResumedLog | undefined> {
  const fold = new InterruptedRunsFold();
  const steps = readSessionLogInSteps<SessionEvent>(
    file,
    looksLikeEvent as (value: unknown) => value is SessionEvent,
    HISTORY_CHUNK_BYTES,
    filter,
  );
  // Leaving the loop early closes the log (the generator's `return`).
  for (const events of steps) {
    if (filter && !filter.exact) return undefined;
    fold.add(events);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return filter && !filter.exact ? undefined : fold.finish();
}
