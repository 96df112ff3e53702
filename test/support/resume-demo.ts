import { copyFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { OrchestratorOptions } from "../../src/orchestrator/orchestrator-options.js";
import type { SessionState } from "../../src/session/state.js";
import { sessionLogPath } from "../../src/store/state-dir.js";
import { tempDir } from "./run-conch.js";
import { untilState } from "./until-state.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The demo agent with `loadSession` and `resume` taken out of its capabilities: conch shows its own log. */
export const noLoadAgent = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.resolve(here, "../../bench/lib/no-load-agent.mjs"))}`;

/** How a session is resumed: where, by which agent, and when its state is the one to compare. */
export interface DemoResume {
  sessionId: string;
  cwd: string;
  agent: string;
  until: (s: SessionState) => boolean;
  /** The log is read only once the agent is known to replay, so the agent's text in it is left unread. */
  skipText?: boolean;
}

/** Resumes a session in this process, from a copy of its log so each resume reads the same one; its state once `until` holds. */
export async function resumeDemo(r: DemoResume): Promise<SessionState> {
  const log = sessionLogPath(r.sessionId);
  const kept = `${tempDir("conch-log-copy-")}/log.jsonl`;
  copyFileSync(log, kept);
  const run = await prepareSession({ agent: r.agent, continue: false, cwd: r.cwd, resume: r.sessionId }, "ask");
  if (r.skipText) {
    const opts = (run.orchestrator as unknown as { opts: OrchestratorOptions }).opts;
    const read = opts.loadHistory!;
    opts.loadHistory = async (replayed) => {
      while (!replayed()) await new Promise((resolve) => setTimeout(resolve, 5));
      return read(replayed);
    };
  }
  await run.orchestrator.start(run.mode);
  const state = await untilState(run.orchestrator, r.until);
  await run.orchestrator.shutdown();
  await run.recorder.close();
  copyFileSync(kept, log);
  return state;
}
