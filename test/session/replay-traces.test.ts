import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/session/events.js";
import { localHistoryOf } from "../../src/session/local-history.js";
import { foldEvents } from "../../src/session/reduce.js";
import { displayStatus, type SessionState } from "../../src/session/state.js";
import { traceToEvents } from "../support/trace-events.js";
import { displayOf } from "../../src/session/profiles/display-of.js";

/** The conversation as a person reads it: real user prompts and the agent's answers, per turn. */
function conversation(s: SessionState, filter: (turnId: string) => boolean = () => true): string[] {
  return s.items
    .filter((i) => (i.kind === "user" && !i.internal) || i.kind === "agent")
    .filter((i) => filter((i as { turnId: string }).turnId))
    .map((i) => `${i.kind}: ${(i as { text: string }).text.trim()}`);
}

/** Process 2's events with conch's own log of process 1 attached to the start of the replay. */
function resumedWithLocal(trace: string, local: SessionEvent[]): SessionEvent[] {
  const history = localHistoryOf(foldEvents(local));
  return traceToEvents(trace, { process: 2 }).map((ev) => (ev.type === "replay_started" ? { ...ev, local: history } : ev));
}

const firstPrompts = (s: SessionState, n: number) => {
  const ids = new Set(
    s.turns
      .filter((t) => t.origin !== "agent")
      .slice(0, n)
      .map((t) => t.id),
  );
  return (turnId: string) => ids.has(turnId);
};

describe("a resumed session shows the same conversation as the original", () => {
  for (const trace of ["claude-agent-acp-0.23.1/s6-load-session.jsonl", "claude-agent-acp-0.100.0/s6-load-session.jsonl"]) {
    it(`${trace}: session/load's replay matches process 1`, () => {
      const original = foldEvents(traceToEvents(trace, { process: 1 }));
      const resumed = foldEvents(traceToEvents(trace, { process: 2 }));
      const history = new Set(resumed.turns.filter((t) => t.origin === "history").map((t) => t.id));
      expect(
        conversation(resumed, (id) => history.has(id))
          .join("\n")
          .replace(/\s+/g, " "),
      ).toBe(conversation(original).join("\n").replace(/\s+/g, " "));
      expect(
        Object.values(resumed.toolCalls)
          .filter((t) => t.history)
          .map(displayStatus),
      ).toEqual(["completed"]);
    });
  }

  it("gemini g5: the replay that continues after the load response is still history and matches", () => {
    const original = foldEvents(traceToEvents("gemini-cli-0.61.0/g5.jsonl", { process: 1 }));
    const resumed = foldEvents(traceToEvents("gemini-cli-0.61.0/g5.jsonl", { process: 2 }));
    const history = new Set(resumed.turns.filter((t) => t.origin === "history").map((t) => t.id));
    const resumedText = conversation(resumed, (id) => history.has(id)).join(" ");
    for (const line of conversation(original)) expect(resumedText).toContain(line.split(": ").slice(1).join(": ").slice(0, 30));
    // The prompt after the load is live, not history.
    expect(resumed.turns.filter((t) => t.origin === "user")).toHaveLength(1);
  });

  it("gemini g5: the replay's tail (after the load response) is the same turn as live, its command named as conch saw it, and nothing said missing", () => {
    const local = foldEvents(traceToEvents("gemini-cli-0.61.0/g5.jsonl", { process: 1 }));
    const history = localHistoryOf(local);
    // The recording's first load failed (the same UTC minute); the log's facts go with the one that worked.
    const events = traceToEvents("gemini-cli-0.61.0/g5.jsonl", { process: 2 });
    const worked = events.findLastIndex((ev) => ev.type === "replay_started");
    events[worked] = { ...events[worked], local: history } as SessionEvent;
    const resumed = foldEvents(events);
    const replayed = resumed.items.filter((i) => i.kind !== "notice" && "history" in i && i.history);
    // gemini replays the tool's result to its model as a user message: no turn of its own, no line.
    expect(replayed.map((i) => i.kind === "user" && i.text)).not.toContainEqual(expect.stringContaining("[Function Response"));
    const prompt = replayed.find((i) => i.kind === "user" && i.text === "Count the lines in notes.txt.")!;
    const answer = replayed.find((i) => i.kind === "agent" && i.text === "notes.txt has 3 lines.")!;
    expect(answer.turnId).toBe(prompt.turnId);
    const tools = Object.values(resumed.toolCalls).filter((t) => t.history);
    expect(tools.map((t) => t.title)).toEqual(["wc -l < notes.txt"]);
    expect(resumed.items.filter((i) => i.kind === "notice").map((i) => i.kind === "notice" && i.text)).not.toContainEqual(
      expect.stringContaining("leaves out"),
    );
  });

  it("codex c5: polls replayed as write_stdin calls are grouped under the original command, and the local log fills its kind and screen", () => {
    const local = traceToEvents("codex-acp-0.16.0/c5.jsonl", { process: 1 });
    const resumed = foldEvents(resumedWithLocal("codex-acp-0.16.0/c5.jsonl", local));
    const toolItems = resumed.items.filter((i) => i.kind === "tool");
    expect(toolItems).toHaveLength(1);
    const exec = resumed.toolCalls.call_c4_exec;
    expect(exec.polls).toEqual(["call_c5_1", "call_c5_2"]);
    expect(exec.kind).toBe("execute");
    expect(resumed.terminals.call_c4_exec.outputTail).toContain("done");
    const original = foldEvents(local);
    expect(conversation(resumed, firstPrompts(resumed, 1)).join(" ").replace(/\s+/g, "")).toBe(
      conversation(original).join(" ").replace(/\s+/g, ""),
    );
  });

  it("codex c5: the resumed command shows its output, not codex's exec header ('Chunk ID…', 'Process running with session ID…') over a command that exited", () => {
    const local = traceToEvents("codex-acp-0.16.0/c5.jsonl", { process: 1 });
    const resumed = foldEvents(resumedWithLocal("codex-acp-0.16.0/c5.jsonl", local));
    const shown = JSON.stringify(displayOf(resumed, resumed.toolCalls.call_c4_exec).blocks);
    expect(shown).not.toMatch(/Chunk ID|Wall time|Process running|Original token count/);
    expect(shown).toContain("call_c4_exec");
  });

  it("codex c5: a command the local log saw still running, replayed as completed with no exit status, is 'unknown' until a poll sees it exit", () => {
    const all = traceToEvents("codex-acp-0.16.0/c5.jsonl", { process: 1 });
    // conch quit while the command still ran: its log ends after the first output.
    const cut = all.findIndex((e) => e.type === "update" && JSON.stringify(e.notification).includes('"data":"tick\\n"'));
    const events = resumedWithLocal("codex-acp-0.16.0/c5.jsonl", all.slice(0, cut + 1));
    const beforePolls = events.findIndex((e) => e.type === "update" && JSON.stringify(e.notification).includes("call_c5_1"));
    const replayed = events.findIndex((e) => e.type === "replay_ended");
    // Apply the local facts right when the replay's exec_command call is complete, before the polls.
    const atCompletion = foldEvents([...events.slice(0, beforePolls), events[replayed]]);
    expect(displayStatus(atCompletion.toolCalls.call_c4_exec)).toBe("unknown");
    const end = foldEvents(events);
    expect(displayStatus(end.toolCalls.call_c4_exec)).toBe("completed");
  });

  it("codex c5: a command running when the agent died shows interrupted after the resume, under its real command, though the replay calls it a completed `exec_command`", () => {
    const all = traceToEvents("codex-acp-0.16.0/c5.jsonl", { process: 1 });
    const cut = all.findIndex((e) => e.type === "update" && JSON.stringify(e.notification).includes('"data":"tick\\n"'));
    const died: SessionEvent = {
      type: "agent_exited",
      at: all[cut].at + 1,
      code: null,
      signal: "SIGKILL",
      stderrTail: "",
      expected: false,
    };
    const local = [...all.slice(0, cut + 1), died];
    expect(displayStatus(foldEvents(local).toolCalls.call_c4_exec)).toBe("interrupted");
    const events = resumedWithLocal("codex-acp-0.16.0/c5.jsonl", local);
    const beforePolls = events.findIndex((e) => e.type === "update" && JSON.stringify(e.notification).includes("call_c5_1"));
    const replayed = events.findIndex((e) => e.type === "replay_ended");
    const resumed = foldEvents([...events.slice(0, beforePolls), events[replayed]]);
    expect(displayStatus(resumed.toolCalls.call_c4_exec)).toBe("interrupted");
    expect(resumed.toolCalls.call_c4_exec.title).toBe("sleep 1; echo tick; sleep 6; echo done");
  });
});

describe("local history after a refused call", () => {
  it("a call conch refused, whose display terminal never exited, is not running after a resume", () => {
    const local: SessionEvent[] = [
      { type: "prompt_sent", at: 1, turnId: "t1", prompt: [{ type: "text", text: "touch" }] },
      {
        type: "permission_asked",
        at: 2,
        key: "agent:0",
        request: {
          sessionId: "s",
          toolCall: { toolCallId: "x", title: "touch f", kind: "execute", _meta: { terminal_info: { terminal_id: "x" } } },
          options: [{ optionId: "no", name: "No", kind: "reject_once" }],
        },
      },
      { type: "permission_answered", at: 3, key: "agent:0", outcome: { outcome: "selected", optionId: "no" }, source: "policy" },
      { type: "prompt_response", at: 4, turnId: "t1", response: { stopReason: "end_turn" } },
    ];
    const facts = localHistoryOf(foldEvents(local));
    expect(facts.tools.x.openAtEnd).toBe(false);
    const resumed = foldEvents([
      { type: "replay_started", at: 10, local: facts },
      {
        type: "update",
        at: 11,
        history: true,
        notification: { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "x", title: "touch f", status: "failed" } },
      },
      { type: "replay_ended", at: 12 },
    ]);
    expect(resumed.terminals.x.exited).toBe(true);
  });

  it("a call cancelled at its permission (claude s5: Esc, or quitting), which the replay calls failed ('Tool permission request failed: AbortError'), is cancelled after a resume too", () => {
    const local: SessionEvent[] = [
      { type: "prompt_sent", at: 1, turnId: "t1", prompt: [{ type: "text", text: "Create the marker file" }] },
      {
        type: "update",
        at: 2,
        notification: {
          sessionId: "s",
          update: { sessionUpdate: "tool_call", toolCallId: "x", title: "touch cancel-me.txt", kind: "execute", status: "pending" },
        },
      },
      {
        type: "permission_asked",
        at: 3,
        key: "agent:0",
        request: {
          sessionId: "s",
          toolCall: { toolCallId: "x", title: "touch cancel-me.txt", kind: "execute" },
          options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }],
        },
      },
      { type: "cancel_requested", at: 4 },
      { type: "permission_answered", at: 5, key: "agent:0", outcome: { outcome: "cancelled" }, source: "cancel" },
      { type: "prompt_response", at: 6, turnId: "t1", response: { stopReason: "cancelled" } },
    ];
    expect(displayStatus(foldEvents(local).toolCalls.x)).toBe("cancelled");
    const resumed = foldEvents([
      { type: "replay_started", at: 10, local: localHistoryOf(foldEvents(local)) },
      {
        type: "update",
        at: 11,
        history: true,
        notification: {
          sessionId: "s",
          update: { sessionUpdate: "tool_call", toolCallId: "x", title: "touch cancel-me.txt", status: "failed" },
        },
      },
      { type: "replay_ended", at: 12 },
    ]);
    expect(displayStatus(resumed.toolCalls.x)).toBe("cancelled");
  });
});
