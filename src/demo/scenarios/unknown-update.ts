import type { Scenario } from "./scenario.js";

/** The `sessionUpdate` kind no ACP version defines, to test that clients tolerate the unknown. */
const UNKNOWN_UPDATE_KIND = "future_thing";

interface FutureUpdateNotification {
  sessionId: string;
  update: { sessionUpdate: typeof UNKNOWN_UPDATE_KIND; detail: string };
}

/**
 * `unknown`: sends a `session/update` of a kind from "the future". The SDK
 * does not check outgoing params, so the untyped `notify` overload writes it
 * as a normal ndjson line. It is not kept in the history: a replay must not
 * depend on a client tolerating it twice.
 */
export const unknownUpdateScenario: Scenario = {
  name: "unknown",
  keywords: ["unknown", "future"],
  summary: `sends a session/update of an unknown kind (\`${UNKNOWN_UPDATE_KIND}\`) a client must ignore`,
  async run(turn) {
    await turn.client.notify<FutureUpdateNotification>("session/update", {
      sessionId: turn.session.id,
      update: { sessionUpdate: UNKNOWN_UPDATE_KIND, detail: "sent by the conch demo agent" },
    });
    await turn.say(
      `I just sent a \`session/update\` of kind \`${UNKNOWN_UPDATE_KIND}\`, which no ACP version defines. A tolerant client ignores it and carries on, as you can see.`,
    );
  },
};
