import { copyFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { OrchestratorOptions, ResumedLog } from "../../src/orchestrator/orchestrator-options.js";
import type { SessionState } from "../../src/session/state.js";
import { sessionLogPath } from "../../src/store/state-dir.js";
import { tempDir } from "../support/run-conch.js";
import { useDemoEnv } from "../support/demo-env.js";
import { untilState } from "../support/until-state.js";

useDemoEnv();

const base = { agent: "demo", continue: false } as const;

/** What the transcript and the session's records hold, without the clock's readings. */
function seen(s: SessionState): string {
  const { items, toolCalls, terminals, turns, writes, checkpoints } = s;
  return JSON.stringify({ items, toolCalls, terminals, turns, writes, checkpoints }, (key, value: unknown) =>
    /(^at|At)$/.test(key) ? undefined : value,
  );
}

/** Resumes `sessionId` (the demo replays it: `session/load`), reading conch's log whole or as the load now reads it. */
async function resumed(sessionId: string, cwd: string, readWhole: boolean): Promise<{ state: SessionState; log: ResumedLog }> {
  const log = sessionLogPath(sessionId);
  const kept = `${tempDir("conch-log-copy-")}/log.jsonl`;
  copyFileSync(log, kept);
  const run = await prepareSession({ ...base, cwd, resume: sessionId }, "approve-all");
  const opts = (run.orchestrator as unknown as { opts: OrchestratorOptions }).opts;
  const read = opts.loadHistory!;
  let got: ResumedLog | undefined;
  opts.loadHistory = async (replayed) => {
    // Read once the agent is known to replay it, as a long log mostly is: else nothing would be left out here.
    while (!readWhole && !replayed()) await new Promise((resolve) => setTimeout(resolve, 5));
    return (got = await read(readWhole ? () => false : replayed));
  };
  await run.orchestrator.start(run.mode);
  const state = await untilState(run.orchestrator, (s) => s.phase === "idle" && !s.replaying);
  await run.orchestrator.shutdown();
  await run.recorder.close();
  // The next resume reads the same log: this run's own lines are not part of the comparison.
  copyFileSync(kept, log);
  return { state, log: got! };
}

describe("a session/load resume that leaves the agent's text in conch's log unread", () => {
  it("shows the same transcript and records as one that read the whole log", async () => {
    const cwd = tempDir();
    const first = await prepareSession({ ...base, cwd }, "approve-all");
    await first.orchestrator.start(first.mode);
    let turns = 0;
    for (const prompt of ["markdown", "plan", "run", "edit", "markdown again"]) {
      first.orchestrator.send(prompt);
      turns++;
      await untilState(first.orchestrator, (s) => s.phase === "idle" && s.turns.filter((t) => t.stopReason).length === turns);
    }
    const sessionId = first.orchestrator.state.info!.sessionId;
    await first.orchestrator.shutdown();
    await first.recorder.close();

    const whole = await resumed(sessionId, cwd, true);
    const { state: now, log } = await resumed(sessionId, cwd, false);
    expect(log.events.length).toBeLessThan(whole.log.events.length);
    expect(log.whole).toBeDefined();
    expect(now.items.filter((i) => i.kind === "tool").length).toBeGreaterThan(0);
    expect(Object.keys(now.terminals).length).toBeGreaterThan(0);
    expect(seen(now)).toBe(seen(whole.state));
  });
});
