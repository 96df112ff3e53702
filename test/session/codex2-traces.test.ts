import { describe, expect, it } from "vitest";
import { nextAction } from "../../src/orchestrator/turn-machine.js";
import { DEFAULT_TIMING } from "../../src/session/quiet-period.js";
import { describeOpenWork, openWork } from "../../src/session/open-work.js";
import { reportedInBackground } from "../../src/session/profiles/display-of.js";
import { profileFor, profileOf } from "../../src/session/profiles/select-profile.js";
import { foldEvents, reduce } from "../../src/session/reduce.js";
import { displayStatus, type SessionState } from "../../src/session/state.js";
import type { SessionEvent } from "../../src/session/events.js";
import { traceToEvents } from "../support/trace-events.js";

const DIR = "codex-acp-2.6.0";
const tools = (s: SessionState) => Object.values(s.toolCalls);

/** Folds events until the first one `stop` picks (included); returns the state and the rest. */
function foldUntil(events: SessionEvent[], stop: (ev: SessionEvent) => boolean) {
  const i = events.findIndex(stop);
  return { state: foldEvents(events.slice(0, i + 1)), rest: events.slice(i + 1) };
}

/** The turn machine's settle, as the orchestrator applies it when nothing is open. */
function settle(s: SessionState, at: number): SessionState {
  return nextAction(s, at, DEFAULT_TIMING).type === "settle" ? reduce(s, { type: "settled", at }) : s;
}

describe("codex-acp 2.x has its own profile", () => {
  it("selected by name and major version: 2.6.0 (and any 1.x) is the App Server adapter, 0.16 keeps the Rust one's", () => {
    expect(profileFor({ name: "@agentclientprotocol/codex-acp", version: "2.6.0" }).id).toBe("codex-acp-2");
    expect(profileFor({ name: "@agentclientprotocol/codex-acp", version: "1.6.2" }).id).toBe("codex-acp-2");
    expect(profileFor({ name: "codex-acp", version: "0.16.0" }).id).toBe("codex-acp");
    expect(profileOf(foldEvents(traceToEvents(`${DIR}/c1.jsonl`))).id).toBe("codex-acp-2");
  });
});

describe("codex-acp 2.6.0 traces through the reducer", () => {
  it("c1: threadStatus frames the turn (running, then idle before the response); usage comes from the result; the generated title wins", () => {
    const events = traceToEvents(`${DIR}/c1.jsonl`);
    const { state: during } = foldUntil(events, (e) => e.type === "update" && JSON.stringify(e).includes('"active"'));
    expect(during.agentState).toBe("running");
    const s = foldEvents(events);
    expect(s.agentState).toBe("idle");
    expect(s.turns[0].usage?.totalTokens).toBeGreaterThan(0);
    expect(s.tokens.totalTokens).toBe(s.turns[0].usage?.totalTokens);
    // The second title comes ~0.1 s after the response, from codex's title generator: no new turn.
    expect(s.title).toBe("Say hello");
    expect(s.turns.map((t) => t.origin)).toEqual(["user"]);
  });

  it("c2: the tool_call comes before its permission; while the person decides codex says it waits (requires_action); then hello, exit 0", () => {
    const events = traceToEvents(`${DIR}/c2.jsonl`);
    const { state: asking } = foldUntil(events, (e) => e.type === "permission_asked");
    expect(asking.agentState).toBe("requires_action");
    // The request's own copy of the call says `pending`: it runs once allowed.
    expect(tools(asking).map((t) => [t.title, t.kind, t.status])).toEqual([["echo hello", "execute", "pending"]]);
    expect(asking.permissions).toHaveLength(1);
    // A person's decision never stalls, whatever codex's own state says meanwhile.
    expect(openWork(asking).every((w) => !w.stallable || w.kind === "tool")).toBe(true);
    const s = foldEvents(events);
    const [t] = tools(s);
    expect(displayStatus(t)).toBe("completed");
    expect(s.terminals[t.terminalId!].outputTail).toBe("hello\n");
    expect(s.terminals[t.terminalId!].exitCode).toBe(0);
  });

  it("c4-meta.latency: the output streams live (tick, then done) and the call completes with its exit code", () => {
    const s = foldEvents(traceToEvents(`${DIR}/c4-meta.latency.jsonl`));
    const [t] = tools(s);
    expect(t.title).toBe("sleep 1; echo tick; sleep 6; echo done");
    expect(displayStatus(t)).toBe("completed");
    expect(s.terminals[t.terminalId!].outputTail).toBe("tick\ndone\n");
    expect(s.terminals[t.terminalId!].exitCode).toBe(0);
  });

  it("c5-unfinished: a command that outlives its turn stays live (its output keeps coming after end_turn) without holding the session", () => {
    const events = traceToEvents(`${DIR}/c5-unfinished.jsonl`, { process: 1 });
    const { state: answered, rest } = foldUntil(events, (e) => e.type === "prompt_response");
    const done = settle(answered, answered.lastAgentActivityAt);
    expect(done.phase).toBe("idle");
    const [t] = tools(done);
    expect(displayStatus(t)).toBe("background");
    expect(reportedInBackground(done, t)).toBe(true);
    expect(describeOpenWork(openWork(done))).toBe("");
    const later = rest.reduce(reduce, done);
    expect(later.terminals[t.terminalId!].outputTail).toBe("tick\n");
    expect(later.phase).toBe("idle");
    expect(displayStatus(later.toolCalls[t.toolCallId])).toBe("background");
  });

  it("c5-unfinished: when the agent stops, the command that was still running ended with it (no exit update ever comes): never left running", () => {
    const events = traceToEvents(`${DIR}/c5-unfinished.jsonl`, { process: 1 });
    const s0 = foldEvents(events);
    const at = s0.lastAgentActivityAt + 3000;
    const s = reduce(s0, { type: "agent_exited", at, code: null, signal: "SIGTERM", stderrTail: "", expected: true });
    const [t] = tools(s);
    expect(displayStatus(t)).toBe("ended_with_agent");
    expect(reportedInBackground(s, t)).toBe(false);
    expect(s.terminals[t.terminalId!].exited).toBe(true);
    expect(s.phase).not.toBe("failed");
  });

  it("c5-unfinished, after the agent's own end for it: a later completion replaces the background guess", () => {
    const events = traceToEvents(`${DIR}/c5-unfinished.jsonl`, { process: 1 });
    const folded = foldEvents(events);
    const s0 = settle(folded, folded.lastAgentActivityAt);
    const at = s0.lastAgentActivityAt + 6000;
    const update = (u: object): SessionEvent => ({
      type: "update",
      at,
      notification: { sessionId: s0.info!.sessionId, update: u as never },
    });
    const s = [
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: "call_c5u_exec",
        _meta: { terminal_output: { data: "done\n", terminal_id: "call_c5u_exec" } },
      }),
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: "call_c5u_exec",
        status: "completed",
        _meta: { terminal_exit: { exit_code: 0, signal: null, terminal_id: "call_c5u_exec" } },
      }),
    ].reduce(reduce, s0);
    const t = s.toolCalls.call_c5u_exec;
    expect(displayStatus(t)).toBe("completed");
    expect(s.terminals.call_c5u_exec.outputTail).toBe("tick\ndone\n");
    expect(s.phase).toBe("idle");
  });

  it("c6: a cancel stops the model, not the command codex already runs: it is shown running on in codex's session, and ends with the agent", () => {
    const events = traceToEvents(`${DIR}/c6.jsonl`);
    const s = foldEvents(events);
    const [t] = tools(s);
    // codex goes on running `sleep 30` after the cancel, and reports its end if it lives that long.
    expect(displayStatus(t)).toBe("background");
    expect(s.turns.map((x) => x.stopReason)).toEqual(["cancelled", "cancelled", "end_turn"]);
    expect(s.agentState).toBe("idle");
    expect(describeOpenWork(openWork(s))).toBe("");
    const gone = reduce(s, {
      type: "agent_exited",
      at: s.lastAgentActivityAt + 1,
      code: null,
      signal: "SIGTERM",
      stderrTail: "",
      expected: true,
    });
    expect(displayStatus(gone.toolCalls[t.toolCallId])).toBe("ended_with_agent");
  });

  it("a call still waiting for its permission when the turn is cancelled never ran: it is cancelled", () => {
    const events = traceToEvents(`${DIR}/c2.jsonl`);
    const { state: asking } = foldUntil(events, (e) => e.type === "permission_asked");
    const key = asking.permissions[0].key;
    const at = asking.lastAgentActivityAt + 1;
    const s = [
      { type: "cancel_requested", at } as SessionEvent,
      { type: "permission_answered", at, key, outcome: { outcome: "cancelled" }, source: "cancel" } as SessionEvent,
      { type: "prompt_response", at, turnId: asking.pendingPrompts[0], response: { stopReason: "cancelled" } } as SessionEvent,
    ].reduce(reduce, asking);
    expect(displayStatus(tools(s)[0])).toBe("cancelled");
  });

  it("c5 load: the replay has the live shape (the command with its whole output and exit code)", () => {
    const s = foldEvents(traceToEvents(`${DIR}/c5.jsonl`, { process: 2 }));
    const [t] = tools(s);
    expect(t.history).toBe(true);
    expect(t.title).toBe("sleep 1; echo tick; sleep 6; echo done");
    expect(displayStatus(t)).toBe("completed");
    expect(s.terminals[t.terminalId!].outputTail).toBe("tick\ndone\n");
  });
});

describe("codex-acp 2.6.0 c5-unfinished: the load replay leaves out the unfinished turn", () => {
  it("the replay is only the title and the user message; conch says which calls its own log has that the replay lacks", async () => {
    const { localHistoryOf } = await import("../../src/session/local-history.js");
    const first = foldEvents(traceToEvents(`${DIR}/c5-unfinished.jsonl`, { process: 1 }));
    const ended = reduce(first, {
      type: "agent_exited",
      at: first.lastAgentActivityAt + 1,
      code: null,
      signal: "SIGTERM",
      stderrTail: "",
      expected: true,
    });
    const local = localHistoryOf(ended);
    const events = traceToEvents(`${DIR}/c5-unfinished.jsonl`, { process: 2 }).map((e) =>
      e.type === "replay_started" ? { ...e, local } : e,
    );
    const s = foldEvents(events);
    expect(tools(s)).toEqual([]);
    const notices = s.items.filter((i) => i.kind === "notice").map((i) => (i as { text: string }).text);
    expect(notices).toEqual([
      "Codex's replay leaves out a tool call that conch recorded: `sleep 1; echo tick; sleep 6; echo done` (ended with the agent); `conch export` of this session shows conch's own record",
    ]);
    expect(s.items.filter((i) => i.kind === "user").map((i) => (i as { text: string }).text)).toEqual([
      "Start the slow command and do not wait for it.",
      "Are you still there?",
    ]);
  });
});
