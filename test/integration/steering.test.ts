import { describe, expect, it } from "vitest";
import { prepareSession } from "../../src/cli/session-setup.js";
import type { SessionState } from "../../src/session/state.js";
import { tempDir } from "../support/run-conch.js";
import { useDemoEnv } from "../support/demo-env.js";
import { untilState } from "../support/until-state.js";

useDemoEnv();

const until = untilState;

describe("steering with the demo agent over stdio", () => {
  it("a message steered into the slow turn shows in that turn, and the agent's answer to it follows it", async () => {
    const s = await prepareSession({ agent: "demo", continue: false, cwd: tempDir() }, "approve-all");
    await s.orchestrator.start(s.mode);
    const orch = s.orchestrator;
    expect(orch.state.agent?.steering).toBe(true);
    orch.send("slow");
    await until(orch, (st) => st.items.some((i) => i.kind === "agent"));
    orch.steer("mention bananas");
    const steered = await until(orch, (st) => st.items.some((i) => i.kind === "user" && i.steered === true));
    const turnId = steered.pendingPrompts[0];
    expect(steered.items.find((i) => i.kind === "user" && i.steered)).toMatchObject({ text: "mention bananas", turnId });
    const acked = await until(orch, (st) => st.items.some((i) => i.kind === "agent" && i.text.includes("You steered me")));
    const at = (pred: (i: SessionState["items"][number]) => boolean) => acked.items.findIndex(pred);
    expect(at((i) => i.kind === "user" && i.steered === true)).toBeLessThan(
      at((i) => i.kind === "agent" && i.text.includes("You steered me")),
    );
    expect(acked.items.find((i) => i.kind === "agent" && i.text.includes("You steered me"))?.turnId).toBe(turnId);
    // One prompt went out: the steered message was not queued behind the turn.
    expect(acked.turns.filter((t) => t.origin === "user")).toHaveLength(1);
    orch.cancel();
    await orch.waitFor(["idle"]);
    await orch.shutdown();
    await s.recorder.close();
  });
});
