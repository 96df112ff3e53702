import { describe, expect, it } from "vitest";
import { foldEvents, reduce } from "../../src/session/reduce.js";
import { describeOpenWork, openWork } from "../../src/session/open-work.js";
import { displayStatus, type SessionState, type TranscriptItem } from "../../src/session/state.js";
import type { SessionEvent } from "../../src/session/events.js";
import { traceToEvents } from "../support/trace-events.js";

const texts = (s: SessionState, kind: TranscriptItem["kind"]) =>
  s.items.filter((i) => i.kind === kind).map((i) => (i as { text: string }).text);
const tools = (s: SessionState) => Object.values(s.toolCalls);
const fold = (rel: string, process?: number) => foldEvents(traceToEvents(rel, { process }));

/** Folds a trace up to (and including) the nth prompt response. */
function foldUntilResponse(rel: string, n: number): { state: SessionState; rest: SessionEvent[] } {
  const events = traceToEvents(rel);
  let seen = 0;
  let i = 0;
  for (; i < events.length; i++) if (events[i].type === "prompt_response" && ++seen === n) break;
  return { state: foldEvents(events.slice(0, i + 1)), rest: events.slice(i + 1) };
}

describe("the session reducer over real agents' traces", () => {
  it("claude 0.23.1 s1: thoughts and answer stream into one item each, empty first chunks are not content", () => {
    const s = fold("claude-agent-acp-0.23.1/s1-text.jsonl");
    expect(texts(s, "user")).toEqual(["Say hello"]);
    expect(texts(s, "thought")).toHaveLength(1);
    expect(texts(s, "agent")).toHaveLength(1);
    expect(texts(s, "agent")[0].length).toBeGreaterThan(5);
    expect(s.lastStopReason).toBe("end_turn");
    expect(s.usage?.size).toBe(200000);
    expect(s.tokens.totalTokens).toBeGreaterThan(0);
  });

  it("claude 0.100.0 s1: a session title that arrives after end_turn is kept, not a new turn", () => {
    const s = fold("claude-agent-acp-0.100.0/s1-text.jsonl");
    expect(s.title).toBeTruthy();
    expect(s.turns.map((t) => t.origin)).toEqual(["user"]);
  });

  it("claude s2: the generic 'Terminal' call is filled in, allowed once, and completes with its output", () => {
    const s = fold("claude-agent-acp-0.23.1/s2-bash-permission.jsonl");
    const [t] = tools(s);
    expect(t.title).toBe("echo hello");
    expect(t.kind).toBe("execute");
    expect(displayStatus(t)).toBe("completed");
    expect(t.permission?.optionKind).toBe("allow_once");
    expect(JSON.stringify(t.content)).toContain("hello");
    expect(s.permissions).toHaveLength(0);
  });

  it("claude s2 with terminal_output: the display terminal holds 'hello' and exit 0", () => {
    const s = fold("claude-agent-acp-0.23.1/s2-bash-permission.terminal_output.jsonl");
    const [t] = tools(s);
    const term = s.terminals[t.terminalId!];
    expect(term.source).toBe("display");
    expect(term.outputTail).toContain("hello");
    expect(term.exited).toBe(true);
    expect(term.exitCode).toBe(0);
  });

  it("claude s2 and s4 with terminal_output: the display terminal is named by the command, not the call's first title 'Terminal'", () => {
    for (const rel of [
      "claude-agent-acp-0.23.1/s2-bash-permission.terminal_output.jsonl",
      "claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl",
    ]) {
      const s = fold(rel);
      const display = Object.values(s.terminals).filter((t) => t.source === "display");
      expect(display.length).toBeGreaterThan(0);
      for (const term of display) {
        expect(term.command).not.toBe("Terminal");
        expect(term.command).toBe(s.toolCalls[term.toolCallId!].title);
      }
    }
  });

  it("claude s3: edit diffs carry old and new text, the new file's diff has no old text", () => {
    const s = fold("claude-agent-acp-0.23.1/s3-edit-diff.jsonl");
    const diffs = tools(s).flatMap((t) => t.content.filter((c) => c.type === "diff"));
    expect(diffs.length).toBeGreaterThanOrEqual(2);
    expect(diffs.some((d) => d.type === "diff" && d.oldText == null)).toBe(true);
    expect(tools(s).every((t) => displayStatus(t) === "completed")).toBe(true);
  });

  it("claude s5: the call left pending after cancel is shown cancelled, and the turn ends cancelled", () => {
    const { state } = foldUntilResponse("claude-agent-acp-0.23.1/s5-cancel-permission.jsonl", 1);
    const [t] = tools(state);
    expect(displayStatus(t)).toBe("cancelled");
    expect(state.turns[0].stopReason).toBe("cancelled");
    expect(state.phase).toBe("idle");
    expect(state.permissions).toHaveLength(0);
  });

  it("claude s7: TodoWrite arrives as a plan updated in place, with no tool call", () => {
    const s = fold("claude-agent-acp-0.23.1/s7-todowrite-plan.jsonl");
    expect(tools(s)).toHaveLength(0);
    const plans = s.items.filter((i) => i.kind === "plan");
    expect(plans).toHaveLength(1);
    expect(s.plan!.length).toBeGreaterThan(1);
  });

  it("claude 0.100.0 s4 terminal_output: after end_turn the turn waits for the background job and then for Claude's own report on it", () => {
    const { state, rest } = foldUntilResponse("claude-agent-acp-0.100.0/s4-background-bash.terminal_output.jsonl", 1);
    expect(state.phase).toBe("draining");
    expect(openWork(state)).toMatchObject([{ kind: "report", label: "sleep 3; echo done", ended: false }]);
    // The job's late terminal_exit: the work is over, Claude's report on it is not yet.
    const exitAt = rest.findIndex((e) => e.type === "update" && JSON.stringify(e.notification).includes("terminal_exit"));
    const afterExit = foldEvents(rest.slice(0, exitAt + 1), state);
    const bg1 = openWork(afterExit).filter((w) => w.label === "sleep 3; echo done");
    expect(bg1).toMatchObject([{ kind: "report", ended: true }]);
    expect(describeOpenWork(bg1, "Claude")).toBe("waiting for Claude's report on `sleep 3; echo done`");
    const end = foldEvents(rest, state);
    expect(Object.values(end.background).every((t) => t.reportedAt !== undefined)).toBe(true);
    expect(openWork(end)).toEqual([]);
    expect(Object.values(end.terminals).every((t) => t.exited)).toBe(true);
    // The agent's own follow-up turns are shown as turns the agent started, never merged into a prompt.
    expect(end.turns.filter((t) => t.origin === "agent").length).toBeGreaterThanOrEqual(1);
  });

  it("codex c2: a tool call first seen in a permission request is created from it", () => {
    const s = fold("codex-acp-0.16.0/c2.jsonl");
    const [t] = tools(s);
    expect(t.title).toBe("echo hello");
    expect(displayStatus(t)).toBe("completed");
    expect(t.rawOutput).toBeTruthy();
  });

  it("codex c4-meta: live terminal output shows tick and done, exit 0", () => {
    const s = fold("codex-acp-0.16.0/c4-meta.jsonl");
    const term = Object.values(s.terminals)[0];
    expect(term.outputTail).toContain("tick");
    expect(term.outputTail).toContain("done");
    expect(term.exitCode).toBe(0);
  });

  it("codex c1: the reasoning summary's leading blank chunk is dropped", () => {
    const s = fold("codex-acp-0.16.0/c1.jsonl");
    expect(texts(s, "thought")[0].startsWith("\n")).toBe(false);
  });

  it("codex c6: the exec call cancelled mid-poll is shown cancelled even though codex never says so", () => {
    const s = fold("codex-acp-0.16.0/c6.jsonl");
    const exec = tools(s).find((t) => t.kind === "execute");
    expect(exec && displayStatus(exec)).toBe("cancelled");
    expect(s.turns.map((t) => t.stopReason)).toEqual(["cancelled", "cancelled", "end_turn"]);
    expect(s.phase).not.toBe("failed");
  });

  it("gemini g2: the rejected delete is shown rejected though gemini never updates it", () => {
    const s = fold("gemini-cli-0.61.0/g2.jsonl");
    const [ls, rm] = tools(s);
    expect(displayStatus(ls)).toBe("completed");
    expect(displayStatus(rm)).toBe("rejected");
  });

  it("gemini g6: [MODE_UPDATE] is not model text, and an update for an unannounced call creates it", () => {
    const s = fold("gemini-cli-0.61.0/g6.jsonl");
    expect(texts(s, "agent").join("")).not.toContain("[MODE_UPDATE]");
    expect(tools(s).some((t) => t.status === "failed")).toBe(true);
  });

  it("gemini g5: the replay after the load response is history, including internal context", () => {
    const s = fold("gemini-cli-0.61.0/g5.jsonl", 2);
    const users = s.items.filter((i) => i.kind === "user");
    expect(users.some((u) => u.kind === "user" && u.internal)).toBe(true);
    expect(users.some((u) => u.kind === "user" && u.history && u.text.includes("Count the lines"))).toBe(true);
    expect(tools(s).every((t) => t.history || s.turns.find((x) => x.id === t.turnId)?.origin === "user")).toBe(true);
  });

  it("claude s6 load: internal slash-command transcripts do not swallow the real prompt", () => {
    const s = fold("claude-agent-acp-0.23.1/s6-load-session.jsonl", 2);
    const users = s.items.filter((i): i is Extract<TranscriptItem, { kind: "user" }> => i.kind === "user");
    const real = users.find((u) => u.text === "Run echo hello");
    expect(real?.history).toBe(true);
    expect(real?.internal).toBe(false);
    expect(users.filter((u) => u.internal).length).toBe(2);
  });
});

describe("the session reducer's own rules", () => {
  const at = 1;
  const upd = (update: object): SessionEvent => ({ type: "update", at, notification: { sessionId: "s", update } as never });

  it("an update kind conch does not know is kept and shown, not dropped", () => {
    const s = foldEvents([upd({ sessionUpdate: "future_thing", x: 1 })]);
    expect(s.items).toEqual([expect.objectContaining({ kind: "unknown", updateKind: "future_thing" })]);
  });

  it("a duplicate prompt response changes nothing", () => {
    const events: SessionEvent[] = [
      { type: "prompt_sent", at, turnId: "t1", prompt: [{ type: "text", text: "hi" }] },
      { type: "prompt_response", at, turnId: "t1", response: { stopReason: "end_turn" } },
    ];
    const s = foldEvents(events);
    expect(reduce(s, events[1]).turns).toEqual(s.turns);
  });

  it("an update that only carries _meta erases nothing", () => {
    const s = foldEvents([
      upd({
        sessionUpdate: "tool_call",
        toolCallId: "a",
        title: "ls",
        kind: "execute",
        status: "pending",
        content: [{ type: "content", content: { type: "text", text: "x" } }],
      }),
      upd({ sessionUpdate: "tool_call_update", toolCallId: "a", _meta: { claudeCode: { toolName: "Bash" } } }),
    ]);
    expect(s.toolCalls.a.title).toBe("ls");
    expect(s.toolCalls.a.content).toHaveLength(1);
    expect(s.toolCalls.a.meta).toHaveProperty("claudeCode");
  });

  it("terminal output that arrives before its terminal_info is kept for it", () => {
    const s = foldEvents([
      upd({ sessionUpdate: "tool_call_update", toolCallId: "z", _meta: { terminal_output: { terminal_id: "z", data: "early " } } }),
      upd({ sessionUpdate: "tool_call_update", toolCallId: "z", _meta: { terminal_info: { terminal_id: "z" } } }),
      upd({ sessionUpdate: "tool_call_update", toolCallId: "z", _meta: { terminal_output: { terminal_id: "z", data: "late" } } }),
    ]);
    expect(s.terminals.z.outputTail).toBe("early late");
  });

  it("a queued message leaves the queue exactly when its prompt is sent", () => {
    const s = foldEvents([
      { type: "queue_added", at, id: "q1", text: "next" },
      { type: "prompt_sent", at, turnId: "t1", prompt: [{ type: "text", text: "next" }], queueId: "q1" },
    ]);
    expect(s.queue).toHaveLength(0);
    expect(s.items.filter((i) => i.kind === "user")).toHaveLength(1);
  });

  it("never mutates the state it is given", () => {
    const s0 = foldEvents([upd({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "a" } })]);
    const frozen = JSON.stringify(s0);
    reduce(s0, upd({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "b" } }));
    expect(JSON.stringify(s0)).toBe(frozen);
  });

  it("after a replay the session drains before it is idle, so a replay tail that follows the load response stays history", () => {
    const s = foldEvents([
      { type: "replay_started", at },
      { type: "replay_ended", at },
      { type: "session_started", at, info: { sessionId: "s", cwd: "/", agentName: "gemini", origin: "load" } },
    ]);
    expect(s.phase).toBe("draining");
    const tail = reduce(s, upd({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "old answer" } }));
    expect(tail.items.at(-1)).toMatchObject({ kind: "agent", history: true });
    expect(reduce(tail, { type: "settled", at }).phase).toBe("idle");
  });

  it("a replayed pane of a finished call that never got an exit is not open work", () => {
    const s = foldEvents([
      { type: "replay_started", at },
      {
        type: "update",
        at,
        history: true,
        notification: {
          sessionId: "s",
          update: {
            sessionUpdate: "tool_call",
            toolCallId: "x",
            title: "touch",
            status: "failed",
            _meta: { terminal_info: { terminal_id: "x" } },
          } as never,
        },
      },
      { type: "replay_ended", at },
    ]);
    expect(s.terminals.x.exited).toBe(false);
    expect(openWork(s)).toEqual([]);
  });
});
