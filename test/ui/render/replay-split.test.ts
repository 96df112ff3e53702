import { beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../../src/session/events.js";
import { localHistoryOf, type LocalHistory } from "../../../src/session/local-history.js";
import { foldEvents } from "../../../src/session/reduce.js";
import { displayStatus, type SessionState, type TranscriptItem } from "../../../src/session/state.js";
import { itemRows } from "../../../src/ui/render/item-rows.js";
import { itemViewOf } from "../../../src/ui/render/item-view.js";
import { loadRenderLibs } from "../../../src/ui/render/render-libs.js";
import { isSettled } from "../../../src/ui/transcript/settled-items.js";
import { traceToEvents } from "../../support/trace-events.js";
import { plainRows } from "./plain-rows.js";

beforeAll(() => loadRenderLibs());

const TRACE = "codex-acp-0.16.0/c5.jsonl";
const CALL = "call_c4_exec";

/** Process 2's `--continue` (session/load) with conch's own log of process 1, as the opener sends it. */
function resumed(): SessionEvent[] {
  const local = localHistoryOf(foldEvents(traceToEvents(TRACE, { process: 1 })));
  return traceToEvents(TRACE, { process: 2 }).map((ev) => (ev.type === "replay_started" ? { ...ev, local } : ev));
}

const cardOf = (s: SessionState): TranscriptItem => s.items.find((i) => i.kind === "tool" && i.toolCallId === CALL)!;
const rowsOf = (s: SessionState) => plainRows(itemRows(itemViewOf(s, cardOf(s)), { width: 100, expanded: false }));

describe("a replayed card is printed as the whole replay makes it, however the replay's updates arrive", () => {
  it("codex 0.16 c5 `--continue`: wherever the replay is cut into reads, the card printed then is `$ sleep 1; …` with its screen, as at the end", () => {
    const events = resumed();
    const end = events.findIndex((ev) => ev.type === "replay_ended");
    const final = foldEvents(events);
    expect(rowsOf(final)).toMatch(/^✓ \$ sleep 1; echo tick; sleep 6; echo done/);
    const finalTerm = final.terminals[final.toolCalls[CALL].terminalId!];
    let printable = 0;
    // The kit's failure: a frame between the replay's updates and the load's answer printed the card.
    for (let cut = events.findIndex((ev) => ev.type === "replay_started") + 1; cut <= end; cut++) {
      const s = foldEvents(events.slice(0, cut));
      const card = s.items.findIndex((i) => i.kind === "tool" && i.toolCallId === CALL);
      if (card < 0 || !isSettled(s, card)) continue;
      printable++;
      expect(rowsOf(s), `cut before event ${cut}`).toBe(rowsOf(final));
      expect(s.terminals[s.toolCalls[CALL].terminalId!]).toMatchObject({ exited: finalTerm.exited, exitCode: finalTerm.exitCode });
    }
    expect(printable).toBeGreaterThan(0);
  });

  it("a command conch's log saw running, replayed `completed` with no exit status, waits for the replay's end: printed, it would say done before it says unknown", () => {
    const local: LocalHistory = {
      tools: { x: { title: "make test", kind: "execute", content: [], locations: [], openAtEnd: true, status: "in_progress" } },
      terminals: {},
    };
    const update = (at: number, u: Record<string, unknown>): SessionEvent => ({
      type: "update",
      at,
      history: true,
      notification: { sessionId: "s", update: u as never },
    });
    const replay: SessionEvent[] = [
      { type: "replay_started", at: 1, local },
      update(2, { sessionUpdate: "user_message_chunk", content: { type: "text", text: "run the tests" } }),
      update(3, { sessionUpdate: "tool_call", toolCallId: "x", title: "exec_command", status: "completed" }),
      update(4, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Running." } }),
    ];
    const during = foldEvents(replay);
    const card = (s: SessionState) => s.items.findIndex((i) => i.kind === "tool");
    expect(isSettled(during, card(during))).toBe(false);
    const after = foldEvents([...replay, { type: "replay_ended", at: 5 }]);
    expect(displayStatus(after.toolCalls.x)).toBe("unknown");
    expect(isSettled(after, card(after))).toBe(true);
  });
});
