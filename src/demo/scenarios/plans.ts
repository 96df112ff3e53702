import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { PlanRemoved, PlanUpdate } from "@agentclientprotocol/sdk/unstable";
import { planScenario } from "./plan.js";
import type { Scenario } from "./scenario.js";

/** An unstable identified-plan update, sent on the stable connection as it is. */
function planUpdate(
  update: (PlanUpdate & { sessionUpdate: "plan_update" }) | (PlanRemoved & { sessionUpdate: "plan_removed" }),
): SessionUpdate {
  return update as unknown as SessionUpdate;
}

/**
 * `plans`: ACP's identified plans (unstable `plan_update` / `plan_removed`), for clients that
 * advertise the `plan` capability: an item plan worked through, a markdown plan, then the markdown
 * one removed. Other clients get the classic `plan` scenario.
 */
export const plansScenario: Scenario = {
  name: "plans",
  keywords: ["plans"],
  summary: "identified plans: plan_update (items, then markdown) and plan_removed, for clients that take them",
  async run(turn, args) {
    if (!(turn.capabilities as { plan?: unknown }).plan) {
      await turn.say("Your client did not advertise the `plan` capability, so here is a classic plan instead.");
      return planScenario.run(turn, args);
    }
    const steps = ["Survey the code", "Make the change", "Run the tests"];
    const send = (done: number) =>
      turn.send(
        planUpdate({
          sessionUpdate: "plan_update",
          plan: {
            type: "items",
            planId: "work",
            entries: steps.map((content, i) => ({
              content,
              priority: "medium",
              status: i < done ? "completed" : i === done ? "in_progress" : "pending",
            })),
          },
        }),
      );
    for (let done = 0; done <= steps.length; done++) {
      if (turn.cancelled) return;
      await send(done);
      await turn.sleep(turn.config.delayMs * 5);
    }
    await turn.send(
      planUpdate({
        sessionUpdate: "plan_update",
        plan: { type: "markdown", planId: "notes", content: "- [x] write the notes\n- [ ] share them" },
      }),
    );
    await turn.say("Two plans: the work (done) and the notes. The notes plan is no longer needed.");
    await turn.send(planUpdate({ sessionUpdate: "plan_removed", planId: "notes" }));
  },
};
