import type { AnyMessage, SessionNotification } from "@agentclientprotocol/sdk";
import type { ClientHooks } from "./agent-connection.js";
import type { WireTaps } from "./message-stream.js";

/** Lines that are not JSON-RPC shown one by one before conch only counts them. */
const MALFORMED_SHOWN = 5;
const isPowerOfTen = (n: number) => /^10*$/.test(String(n));

/**
 * The connection's taps on the wire: malformed lines become notices (the first few, then a count
 * now and then), and each `session/update` goes straight to `hooks.onUpdate`, around the SDK, so an
 * update kind newer than the SDK is not rejected.
 */
export function connectionTaps(hooks: ClientHooks, taps: WireTaps): WireTaps {
  let malformed = 0;
  return {
    onMessage: taps.onMessage,
    onBurst: (phase) => hooks.onBurst?.(phase),
    paceReads: hooks.paceReads,
    holdReads: hooks.holdReads && (() => hooks.holdReads?.()),
    onMalformed: (line, error) => {
      taps.onMalformed?.(line, error);
      // A flood of them would bury the transcript: the first few are shown, then a count now and then.
      malformed += 1;
      if (malformed <= MALFORMED_SHOWN)
        hooks.onNotice("warning", `the agent wrote a line that is not a JSON-RPC message (${error}): ${line.slice(0, 200)}`);
      else if (malformed === MALFORMED_SHOWN + 1 || isPowerOfTen(malformed))
        hooks.onNotice(
          "warning",
          `the agent has written ${malformed} lines that are not JSON-RPC messages; they are ignored (--trace keeps them all)`,
        );
    },
    intercept: (msg: AnyMessage) => {
      if (!("method" in msg) || msg.method !== "session/update" || "id" in msg) return false;
      const params = (msg as { params?: unknown }).params;
      if (!params || typeof params !== "object" || typeof (params as { update?: unknown }).update !== "object") {
        hooks.onNotice("warning", `the agent sent a session/update without an update: ${JSON.stringify(params).slice(0, 200)}`);
        return true;
      }
      hooks.onUpdate(params as SessionNotification);
      return true;
    },
  };
}
