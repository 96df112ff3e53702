import { beforeAll, describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { SessionState } from "../../src/session/state.js";
import { permissionLabel } from "../../src/ui/render/tool-call-fields.js";
import { tempDir } from "../support/run-conch.js";
import { useDemoEnv } from "../support/demo-env.js";
import { noLoadAgent, resumeDemo } from "../support/resume-demo.js";
import { untilState } from "../support/until-state.js";

useDemoEnv();

const base = { agent: "demo", continue: false } as const;

/** Each call's card line for its permission answer, in the transcript's order: what a person reads. */
function answers(s: SessionState): (string | undefined)[] {
  return s.items.flatMap((i) => (i.kind === "tool" ? [permissionLabel(s.toolCalls[i.toolCallId]?.permission)?.text] : []));
}

let sessionId = "";
let cwd = "";
let original: SessionState;

/** Resumes the session with `agent`; its state once the replay is over and the three cards are back. */
function resumed(agent: string): Promise<SessionState> {
  return resumeDemo({ sessionId, cwd, agent, until: (s) => s.phase === "idle" && !s.replaying && answers(s).length >= 3 });
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
