import type { Implementation, SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { nextAction } from "../../src/orchestrator/turn-machine.js";
import { quietPeriod, type TurnTiming } from "../../src/session/quiet-period.js";
import type { SessionEvent, SessionEventInput } from "../../src/session/events.js";
import { reduce } from "../../src/session/reduce.js";
import { initialSessionState, type SessionState } from "../../src/session/state.js";

const TIMING: TurnTiming = { quietMs: 500, backgroundQuietMs: 5000, stallMs: 120_000, replayQuietMs: 300 };

const CLAUDE: Implementation = { name: "claude-agent-acp", version: "0.100.0" };
const CODEX: Implementation = { name: "codex-acp", version: "0.16.0" };
const GEMINI: Implementation = { name: "gemini-cli", version: "0.61.0" };
/** An agent conch has no profile for: it gives no turn signal, so quiet periods judge its turns. */
const UNKNOWN: Implementation = { name: "some-agent", version: "1.0.0" };

/** Folds events, each stamped with the time given beside it. */
function fold(steps: [number, SessionEventInput][], from: SessionState = initialSessionState()): SessionState {
  return steps.reduce((s, [at, input]) => reduce(s, { ...input, at } as SessionEvent), from);
}

const update = (u: SessionUpdate | Record<string, unknown>): SessionEventInput => ({
  type: "update",
  notification: { sessionId: "s1", update: u as SessionUpdate },
});
const text = (t: string) => update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } });

/** An open session with this agent, idle at time 10. */
function openSession(info: Implementation): SessionState {
  return fold([
    [0, { type: "agent_ready", info }],
    [10, { type: "session_started", info: { sessionId: "s1", cwd: "/tmp", agentName: info.name, agentInfo: info, origin: "new" } }],
  ]);
}

/** A turn that streamed some text and was answered at time 200: the session drains from there. */
function answeredTurn(info: Implementation): SessionState {
  return fold(
    [
      [100, { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "hi" }] }],
      [150, text("hello")],
      [200, { type: "prompt_response", turnId: "t1", response: { stopReason: "end_turn" } }],
    ],
    openSession(info),
  );
}

describe("the queue goes out when the session can take it", () => {
  it("messages queued while the agent starts wait, and the first goes out, with its attachments, once the session opens", () => {
    const image = [{ type: "image" as const, data: "AAAA", mimeType: "image/png" }];
    const starting = fold([
      [0, { type: "agent_ready", info: UNKNOWN }],
      [1, { type: "queue_added", id: "q1", text: "first", blocks: image }],
      [2, { type: "queue_added", id: "q2", text: "second" }],
    ]);
    expect(nextAction(starting, 3, TIMING)).toEqual({ type: "none" });
    const opened = fold(
      [[10, { type: "session_started", info: { sessionId: "s1", cwd: "/tmp", agentName: "some-agent", origin: "new" } }]],
      starting,
    );
    expect(nextAction(opened, 10, TIMING)).toEqual({ type: "send_queued", id: "q1", text: "first", blocks: image });
  });

  it("a message queued during a turn waits for the turn's drain to end, then goes out", () => {
    const draining = fold([[210, { type: "queue_added", id: "q1", text: "next" }]], answeredTurn(CLAUDE));
    expect(nextAction(draining, 210, TIMING)).toEqual({ type: "settle" });
    const ended = fold([[210, { type: "settled" }]], draining);
    expect(nextAction(ended, 210, TIMING)).toEqual({ type: "send_queued", id: "q1", text: "next", blocks: undefined });
  });
});

describe("the quiet period, per agent", () => {
  it("claude, codex and gemini end their turn with the prompt response: the drain ends at once", () => {
    for (const info of [CLAUDE, CODEX, GEMINI]) {
      const s = answeredTurn(info);
      expect(s.phase).toBe("draining");
      expect(quietPeriod(s, TIMING)).toBeUndefined();
      expect(nextAction(s, 200, TIMING)).toEqual({ type: "settle" });
    }
  });

  it("an agent with no profile is given the quiet period after its last activity, then the drain ends", () => {
    const s = answeredTurn(UNKNOWN);
    expect(quietPeriod(s, TIMING)).toEqual({ until: 700, reason: "streaming" });
    expect(nextAction(s, 200, TIMING)).toEqual({ type: "wait", until: 700 });
    expect(nextAction(s, 699, TIMING)).toEqual({ type: "wait", until: 700 });
    expect(nextAction(s, 700, TIMING)).toEqual({ type: "settle" });
  });

  it("text that comes during the quiet period starts it again", () => {
    const s = fold([[600, text(" and more")]], answeredTurn(UNKNOWN));
    expect(nextAction(s, 700, TIMING)).toEqual({ type: "wait", until: 1100 });
  });

  it("after background work ended during the drain, an agent with no profile gets the longer quiet period", () => {
    const s = fold(
      [
        [100, { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "run it" }] }],
        [120, update({ sessionUpdate: "tool_call", toolCallId: "c1", title: "sleep 1", kind: "execute", status: "in_progress" })],
        [200, { type: "prompt_response", turnId: "t1", response: { stopReason: "end_turn" } }],
        [1200, update({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "completed" })],
      ],
      openSession(UNKNOWN),
    );
    expect(quietPeriod(s, TIMING)).toEqual({ until: 6200, reason: "background" });
    expect(nextAction(s, 1200, TIMING)).toEqual({ type: "wait", until: 6200 });
    expect(nextAction(s, 6200, TIMING)).toEqual({ type: "settle" });
  });

  it("a turn the agent starts on its own is judged by the quiet period when the agent marks none (codex)", () => {
    const idle = fold([[200, { type: "settled" }]], answeredTurn(CODEX));
    expect(idle.phase).toBe("idle");
    const s = fold([[1000, text("a report of my own")]], idle);
    expect(s.phase).toBe("draining");
    expect(quietPeriod(s, TIMING)).toEqual({ until: 1500, reason: "agent_turn" });
    expect(nextAction(s, 1500, TIMING)).toEqual({ type: "settle" });
  });

  it("a turn of its own that claude marks is open work until its marker, and stalls if the marker never comes", () => {
    const idle = fold([[200, { type: "settled" }]], answeredTurn(CLAUDE));
    const s = fold([[1000, text("a report of my own")]], idle);
    expect(s.phase).toBe("draining");
    expect(nextAction(s, 1500, TIMING)).toEqual({ type: "wait", until: 1000 + TIMING.stallMs });
    const stall = nextAction(s, 1000 + TIMING.stallMs, TIMING);
    expect(stall).toMatchObject({ type: "stall", kind: "agent_turn" });
  });

  it("a load replay that may go on after its response (gemini) waits the replay's quiet period", () => {
    const s = fold(
      [
        [20, { type: "replay_started" }],
        [40, text("an old answer")],
        [50, { type: "replay_ended" }],
      ],
      openSession(GEMINI),
    );
    expect(s.phase).toBe("draining");
    expect(quietPeriod(s, TIMING)).toEqual({ until: 350, reason: "replay" });
    expect(nextAction(s, 350, TIMING)).toEqual({ type: "settle" });
  });
});

describe("stalls", () => {
  const withOpenCall = () =>
    fold(
      [
        [100, { type: "prompt_sent", turnId: "t1", prompt: [{ type: "text", text: "run it" }] }],
        [120, update({ sessionUpdate: "tool_call", toolCallId: "c1", title: "sleep 1000", kind: "execute", status: "in_progress" })],
        [200, { type: "prompt_response", turnId: "t1", response: { stopReason: "end_turn" } }],
      ],
      openSession(CLAUDE),
    );

  it("a tool call left open after the response is waited on until the stall timeout, then reported stalled", () => {
    const s = withOpenCall();
    expect(nextAction(s, 200, TIMING)).toEqual({ type: "wait", until: 120 + TIMING.stallMs });
    expect(nextAction(s, 120 + TIMING.stallMs - 1, TIMING)).toEqual({ type: "wait", until: 120 + TIMING.stallMs });
    expect(nextAction(s, 120 + TIMING.stallMs, TIMING)).toEqual({ type: "stall", kind: "tool", id: "c1" });
  });

  it("a sign of life from the call puts its stall off", () => {
    const s = fold([[5000, update({ sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress" })]], withOpenCall());
    expect(nextAction(s, 120 + TIMING.stallMs, TIMING)).toEqual({ type: "wait", until: 5000 + TIMING.stallMs });
  });

  it("once stalled, the call is no longer waited on and the drain ends", () => {
    const s = fold([[120 + TIMING.stallMs, { type: "work_stalled", kind: "tool", id: "c1" }]], withOpenCall());
    expect(nextAction(s, 120 + TIMING.stallMs, TIMING)).toEqual({ type: "settle" });
  });

  it("a call waiting on a person's permission never stalls, and the answer restarts its clock", () => {
    const asked = fold(
      [
        [
          300,
          {
            type: "permission_asked",
            key: "agent:1",
            request: {
              sessionId: "s1",
              toolCall: { toolCallId: "c1", title: "sleep 1000" },
              options: [{ optionId: "y", name: "Allow", kind: "allow_once" }],
            },
          },
        ],
      ],
      withOpenCall(),
    );
    expect(nextAction(asked, 120 + 10 * TIMING.stallMs, TIMING)).toEqual({ type: "wait", until: undefined });
    const answeredAt = 300 + 5 * TIMING.stallMs;
    const answered = fold(
      [[answeredAt, { type: "permission_answered", key: "agent:1", outcome: { outcome: "selected", optionId: "y" }, source: "user" }]],
      asked,
    );
    expect(nextAction(answered, answeredAt, TIMING)).toEqual({ type: "wait", until: answeredAt + TIMING.stallMs });
  });

  it("a person's decision never stalls: the drain waits for the answer with no deadline", () => {
    const s = fold(
      [
        [
          300,
          {
            type: "question_asked",
            key: "agent:1",
            request: { sessionId: "s1", mode: "form", message: "Name?", requestedSchema: { type: "object", properties: {} } },
          },
        ],
        [400, { type: "work_stalled", kind: "tool", id: "c1" }],
      ],
      withOpenCall(),
    );
    expect(nextAction(s, 300 + 10 * TIMING.stallMs, TIMING)).toEqual({ type: "wait", until: undefined });
  });
});
