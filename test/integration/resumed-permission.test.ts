import { copyFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { SessionState } from "../../src/session/state.js";
import { sessionLogPath } from "../../src/store/state-dir.js";
import { permissionLabel } from "../../src/ui/render/tool-call-fields.js";
import { tempDir } from "../support/run-conch.js";
import { useDemoEnv } from "../support/demo-env.js";
import { untilState } from "../support/until-state.js";

useDemoEnv();

const base = { agent: "demo", continue: false } as const;
const here = path.dirname(fileURLToPath(import.meta.url));
/** The demo agent with `loadSession` and `resume` taken out of its capabilities: conch shows its own log. */
const noLoadAgent = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.resolve(here, "../../bench/lib/no-load-agent.mjs"))}`;

/** Each call's card line for its permission answer, in the transcript's order: what a person reads. */
function answers(s: SessionState): (string | undefined)[] {
  return s.items.flatMap((i) => (i.kind === "tool" ? [permissionLabel(s.toolCalls[i.toolCallId]?.permission)?.text] : []));
}

let sessionId = "";
let cwd = "";
let original: SessionState;

/** Resumes the session with `agent`, from a copy of its log so each resume reads the same one. */
async function resumed(agent: string): Promise<SessionState> {
  const log = sessionLogPath(sessionId);
  const kept = `${tempDir("conch-log-copy-")}/log.jsonl`;
  copyFileSync(log, kept);
  const run = await prepareSession({ ...base, agent, cwd, resume: sessionId }, "ask");
  await run.orchestrator.start(run.mode);
  const state = await untilState(run.orchestrator, (s) => s.phase === "idle" && !s.replaying && answers(s).length >= 3);
  await run.orchestrator.shutdown();
  await run.recorder.close();
  copyFileSync(kept, log);
  return state;
}

describe("a resumed session's permission cards keep the person's answers", () => {
  beforeAll(async () => {
    cwd = tempDir();
    const first = await prepareSession({ ...base, cwd }, "ask");
    const orch = first.orchestrator;
    await orch.start(first.mode);
    // Allowed once, rejected, and the turn cancelled while its prompt waited.
    for (const answer of ["allow-once", "reject-once", null]) {
      const ended = orch.state.turns.filter((t) => t.stopReason).length;
      orch.send("permission");
      const asked = await untilState(orch, (s) => s.permissions.length > 0);
      if (answer) orch.answerPermission(asked.permissions[0].key, answer);
      else orch.cancel();
      await untilState(orch, (s) => s.phase === "idle" && s.turns.filter((t) => t.stopReason).length === ended + 1);
    }
    original = orch.state;
    sessionId = original.info!.sessionId;
    await orch.shutdown();
    await first.recorder.close();
  }, 60_000);

  it("the person's answers are on the original cards", () => {
    expect(answers(original)).toEqual(["allowed once", "rejected", "permission cancelled"]);
  });

  it("after a load (the agent replays the session), each card says what was answered", async () => {
    const now = await resumed("demo");
    expect(answers(now)).toEqual(answers(original));
    for (const id of Object.keys(original.toolCalls)) expect(now.toolCalls[id]?.permission).toEqual(original.toolCalls[id].permission);
  }, 30_000);

  it("at an agent that can neither load nor resume (conch's own log), each card says what was answered", async () => {
    const now = await resumed(noLoadAgent);
    expect(answers(now)).toEqual(answers(original));
  }, 30_000);
});
