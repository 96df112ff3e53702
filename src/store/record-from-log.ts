import { readdirSync } from "node:fs";
import { join } from "node:path";
import { assertReadable, NewerLogError, parseHeader } from "./log-format.js";
import { forEachLogLine } from "./session-log.js";
import type { SessionRecord } from "./session-index.js";

/** Fields of the events a record is rebuilt from, read structurally: the store does not fold events. */
interface LoggedEvent {
  type?: unknown;
  at?: unknown;
  info?: { sessionId?: unknown; cwd?: unknown; agentName?: unknown };
  prompt?: { type?: unknown; text?: unknown }[];
  response?: { stopReason?: unknown };
}

const TITLE_LENGTH = 80;

function isoAt(at: unknown): string | undefined {
  return typeof at === "number" && Number.isFinite(at) ? new Date(at).toISOString() : undefined;
}

/**
 * The index record of the session whose log is at `path`, rebuilt from the log alone: id, cwd and
 * agent from its `session_started`, the title from its first prompt, times from its events. The
 * log does not hold the agent's command line, so `agentCommand` is empty: a preset or a configured
 * agent resumes by its name; any other needs `--agent`. Undefined for a log with no session in it,
 * or in a newer format than this conch reads (its events may not mean here what they say).
 */
export function recordFromLog(path: string): SessionRecord | undefined {
  let record: SessionRecord | undefined;
  let prompts = 0;
  let answers = 0;
  let lastAt: string | undefined;
  let lastStopReason: string | undefined;
  let firstLine = true;
  try {
    forEachLogLine(path, (line) => {
      if (firstLine && line.trim() !== "") {
        firstLine = false;
        const header = parseHeader(line);
        assertReadable(path, header);
        if (header) return;
      }
      let ev: LoggedEvent;
      try {
        ev = JSON.parse(line) as LoggedEvent;
      } catch {
        return;
      }
      if (typeof ev !== "object" || ev === null) return;
      lastAt = isoAt(ev.at) ?? lastAt;
      if (ev.type === "session_started" && !record) {
        const { sessionId, cwd, agentName } = ev.info ?? {};
        if (typeof sessionId !== "string" || typeof cwd !== "string") return;
        const at = isoAt(ev.at) ?? new Date(0).toISOString();
        record = {
          id: sessionId,
          agent: typeof agentName === "string" ? agentName : "unknown",
          agentCommand: [],
          cwd,
          createdAt: at,
          updatedAt: at,
          messageCount: 0,
        };
      } else if (ev.type === "prompt_sent" && record) {
        prompts++;
        if (record.title === undefined && Array.isArray(ev.prompt)) {
          const text = ev.prompt.map((b) => (b && b.type === "text" && typeof b.text === "string" ? b.text : "")).join("");
          const title = text.split("\n")[0].slice(0, TITLE_LENGTH);
          if (title) record.title = title;
        }
      } else if (ev.type === "prompt_response" && record) {
        answers++;
        if (typeof ev.response?.stopReason === "string") lastStopReason = ev.response.stopReason;
      }
    });
  } catch (err) {
    if (err instanceof NewerLogError) return undefined;
    throw err;
  }
  if (!record) return undefined;
  return {
    ...record,
    updatedAt: lastAt ?? record.updatedAt,
    messageCount: prompts + answers,
    ...(lastStopReason ? { lastStopReason } : {}),
  };
}

/** The event logs in `dir` (`*.jsonl`), by file name. */
export function logFilesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}
