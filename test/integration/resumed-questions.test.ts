import { beforeAll, describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { SessionState } from "../../src/session/state.js";
import { tempDir } from "../support/run-conch.js";
import { useDemoEnv } from "../support/demo-env.js";
import { noLoadAgent, resumeDemo } from "../support/resume-demo.js";
import { untilState } from "../support/until-state.js";

useDemoEnv();

const base = { agent: "demo", continue: false } as const;

/** The transcript as a person reads it: the prompts, the agent's text and the notices, in order. */
function transcript(s: SessionState): string[] {
  return s.items.flatMap((i) => (i.kind === "user" || i.kind === "agent" || i.kind === "notice" ? [`${i.kind}: ${i.text.trim()}`] : []));
}

let sessionId = "";
let cwd = "";
let original: SessionState;

/** Resumes the session with `agent`; its state once the replay is over and the last answer is back. */
function resumed(agent: string, skipText = false): Promise<SessionState> {
  const until = (s: SessionState) => s.phase === "idle" && !s.replaying && transcript(s).some((l) => l.startsWith("agent: You answered"));
  return resumeDemo({ sessionId, cwd, agent, until, skipText });
}

describe("a resumed session keeps the notices of the agent's questions where they were", () => {
  beforeAll(async () => {
    cwd = tempDir();
    const first = await prepareSession({ ...base, cwd }, "ask");
    const orch = first.orchestrator;
    await orch.start(first.mode);
    // Declined, then answered: each between the agent's two messages of its turn.
    for (const response of [{ action: "decline" as const }, { action: "accept" as const, content: { name: "app", language: "rust" } }]) {
      const ended = orch.state.turns.filter((t) => t.stopReason).length;
      orch.send("question");
      const asked = await untilState(orch, (s) => s.questions.length > 0);
      orch.answerQuestion(asked.questions[0].key, response);
      await untilState(orch, (s) => s.phase === "idle" && s.turns.filter((t) => t.stopReason).length === ended + 1);
    }
    original = orch.state;
    sessionId = original.info!.sessionId;
    await orch.shutdown();
    await first.recorder.close();
  }, 60_000);

  it("live, each question's notices come between the agent's messages", () => {
    expect(transcript(original)).toEqual([
      "user: question",
      "agent: Before I scaffold the project, a few questions.",
      "notice: demo asks: How should I set up the project?",
      "notice: answered: decline",
      "agent: You chose **decline**, so I'll leave it.",
      "user: question",
      "agent: Before I scaffold the project, a few questions.",
      "notice: demo asks: How should I set up the project?",
      "notice: answered: accept",
      'agent: You answered: `{"name":"app","language":"rust"}`.',
    ]);
  });

  it("after a load (the agent replays the session), the notices are back in place", async () => {
    const now = await resumed("demo");
    expect(transcript(now)).toEqual(transcript(original));
  }, 30_000);

  it("after a load whose reading of conch's log leaves the agent's text out, the notices are back in place", async () => {
    const now = await resumed("demo", true);
    expect(transcript(now)).toEqual(transcript(original));
  }, 30_000);

  it("at an agent that can neither load nor resume (conch's own log), the notices are in place", async () => {
    const now = await resumed(noLoadAgent);
    // After the transcript, a line says the agent could not load it.
    expect(transcript(now).slice(0, transcript(original).length)).toEqual(transcript(original));
  }, 30_000);
});
